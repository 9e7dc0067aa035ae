// Access is decided by the route a request reaches, whatever the spelling of its path: the router
// matches case-insensitively and takes a trailing slash, so a second list of path strings once
// let `/LOAD_CONFIG` hand the configuration (and the admin key in it) to an API key alone.
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { baseConfig, serviceDir, start } from '../helpers/service.js';

const API_KEY = 'api-key-123';
const ADMIN_KEY = 'admin-key-456';

/** Every endpoint, with a query that changes nothing lasting (or nothing at all). */
const ENDPOINTS = [
  ['/mlds', 'id=main&layout=l1&title=x'],
  ['/status', ''],
  ['/info', ''],
  ['/screenshot', 'format=png'],
  ['/getethernetconfig', ''],
  ['/setethernetconfig', ''],
  ['/reload_config', ''],
  ['/load_config', ''],
  ['/identify', 'seconds=0'],
  ['/brightness/50', ''],
  ['/history', 'id=main'],
  ['/metrics', ''],
  ['/announce', 'id=main&text=x'],
  ['/readout', 'id=main'],
] as const;

/** Other spellings of a path; each must get the access the path gets, or 404. */
function spellings(p: string): string[] {
  const name = p.slice(1);
  const first = name[0];
  return [
    p.toUpperCase(),
    '/' + first.toUpperCase() + name.slice(1),
    '/' + [...name].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join(''),
    p + '/',
    p.toUpperCase() + '/',
    '/' + p,
    p.replace(/\/([^/]*)$/, '//$1'),
    `/%${first.charCodeAt(0).toString(16)}${name.slice(1)}`,
    `/%${first.charCodeAt(0).toString(16).toUpperCase()}${name.slice(1)}`,
    '/./' + name,
    '/x/../' + name,
    p + '%2F',
    p + '.',
    p + ';',
  ];
}

/** A GET with the path exactly as written (fetch() would normalise `/./` and `//`). */
function raw(port: number, pathAndQuery: string, key?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: pathAndQuery, headers: key ? { 'X-API-Key': key } : {}, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
  });
}

async function checkEverySpelling(
  security: Record<string, string>,
  keys: (string | undefined)[],
): Promise<Map<string, number>> {
  const c = baseConfig();
  c.security = security;
  const sd = serviceDir(c);
  const svc = await start(sd);
  const port = Number(new URL(svc.url).port);
  const canonical = new Map<string, number>();
  try {
    for (const [p, q] of ENDPOINTS) {
      for (const key of keys) {
        const want = await raw(port, q ? `${p}?${q}` : p, key);
        canonical.set(`${p} ${key ?? 'none'}`, want);
        for (const s of spellings(p)) {
          const got = await raw(port, q ? `${s}?${q}` : s, key);
          if (got !== 404)
            assert.equal(got, want, `${s} with key ${key ?? 'none'}: ${got}, while ${p} answers ${want}`);
        }
      }
    }
  } finally {
    await svc.close();
    sd.cleanup();
  }
  return canonical;
}

test(
  'every endpoint in every spelling gets the access ' + 'its canonical path gets, or 404 (API and admin keys)',
  async () => {
    const got = await checkEverySpelling({ apiKey: API_KEY, adminKey: ADMIN_KEY }, [
      undefined,
      'wrong-key-000',
      API_KEY,
      ADMIN_KEY,
    ]);
    for (const p of ['/setethernetconfig', '/reload_config', '/load_config', '/identify']) {
      assert.equal(got.get(`${p} ${API_KEY}`), 403, `${p} with the API key alone`);
      assert.equal(got.get(`${p} none`), 403, `${p} with no key`);
      assert.notEqual(got.get(`${p} ${ADMIN_KEY}`), 403, `${p} with the admin key`);
    }
    assert.equal(got.get(`/status ${API_KEY}`), 200);
    assert.equal(got.get('/status none'), 401);
    assert.equal(got.get('/load_config admin-key-456'), 200);
  },
);

test('with only an admin key, the admin endpoints need it in every spelling; the others are open', async () => {
  const got = await checkEverySpelling({ adminKey: ADMIN_KEY }, [undefined, ADMIN_KEY]);
  assert.equal(got.get('/load_config none'), 403);
  assert.equal(got.get('/identify none'), 403);
  assert.equal(got.get('/status none'), 200);
  assert.equal(got.get('/load_config admin-key-456'), 200);
});

test('the spellings the router serves are really served (so the comparison above means something)', async () => {
  const c = baseConfig();
  c.security = { apiKey: API_KEY, adminKey: ADMIN_KEY };
  const sd = serviceDir(c);
  const svc = await start(sd);
  const port = Number(new URL(svc.url).port);
  try {
    assert.equal(await raw(port, '/LOAD_CONFIG', API_KEY), 403);
    assert.equal(await raw(port, '/load_config/', API_KEY), 403);
    assert.equal(await raw(port, '/Load_Config', ADMIN_KEY), 200);
    assert.equal(await raw(port, '/STATUS/', API_KEY), 200);
    assert.equal(await raw(port, '/no-such-path', ADMIN_KEY), 404);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
