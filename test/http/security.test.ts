// Credentials: never recorded in fault records, the log file or stdout, however the name
// is encoded; keys compared in constant time; view tokens open the live pictures only.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { maskQuery, queryKey, sameKey } from '../../src/control/credentials.js';
import { createApp } from '../../src/http/app.js';
import { createHttpServer } from '../../src/http/server.js';
import { LiveViews } from '../../src/http/stream.js';
import { VIEW_COOKIE, ViewTokens } from '../../src/http/view-tokens.js';
import { REPO, baseConfig, get, serviceDir, start, until, cliStart } from '../helpers/service.js';
import { LISTEN_MS } from '../helpers/emulation.js';

const API_KEY = 'api-key-123';
// A space and a slash, so it travels as `+`, `%20` and `%2F` as well as in clear.
const ADMIN_KEY = 'adm1n s3cret/9';
const SECRET_PARTS = ['adm1n', 's3cret'];

function securedConfig() {
  const c = baseConfig();
  c.security = { apiKey: API_KEY, adminKey: ADMIN_KEY };
  return c;
}

/** Every way a client may spell the admin key's name and value in a query. */
const KEY_SPELLINGS = [
  `key=${encodeURIComponent(ADMIN_KEY)}`,
  `key=${ADMIN_KEY.replace(/ /g, '+').replace('/', '%2F')}`,
  `%6Bey=${encodeURIComponent(ADMIN_KEY)}`,
  `k%65y=${ADMIN_KEY.replace(/ /g, '+')}`,
  `%6B%65%79=${encodeURIComponent(ADMIN_KEY)}`,
];

test('maskQuery decodes names before masking; queryKey reads the key the same way', () => {
  assert.equal(maskQuery('id=a&key=secret&x=1'), 'id=a&key=***&x=1');
  assert.equal(maskQuery('%6Bey=secret&k%65y=s2&%6b%65%79=s3'), '%6Bey=***&k%65y=***&%6b%65%79=***');
  assert.equal(maskQuery('?key=secret'), '?key=***');
  assert.equal(maskQuery('id=a&keys=x&key'), 'id=a&keys=x&key', 'other names and a bare name stay');
  // A badly encoded value elsewhere does not stop the masking.
  assert.equal(maskQuery('title=%ZZ&key=secret%FF'), 'title=%ZZ&key=***');
  assert.equal(queryKey('%6Bey=adm1n+s3cret%2F9'), ADMIN_KEY);
  assert.equal(queryKey('key=a&k%65y=b'), '', 'two keys open nothing');
  assert.equal(queryKey('id=a'), '');
});

test('keys are compared by their SHA-256, so length and content do not decide the timing', () => {
  assert.ok(sameKey(API_KEY, API_KEY));
  assert.ok(!sameKey('api-key-12', API_KEY));
  assert.ok(!sameKey(`${API_KEY}x`, API_KEY));
  assert.ok(!sameKey('', API_KEY));
  assert.ok(!sameKey(API_KEY, undefined));
});

test('a key sent with a faulty command is masked on /status, /info, in the log file and on stdout', async () => {
  const sd = serviceDir(securedConfig());
  const logDir = path.join(sd.dir, 'logs');
  const child = spawn(process.execPath, cliStart(sd, '--state-dir', sd.stateDir, '--log-dir', logDir), {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  try {
    await until(() => /listening on port \d+/.test(stderr), LISTEN_MS, 'the service to listen');
    const svc = { url: `http://127.0.0.1:${/listening on port (\d+)/.exec(stderr)![1]}` };
    const asApi = { headers: { 'X-API-Key': API_KEY } };
    for (const spelling of KEY_SPELLINGS) {
      // Each spelling authenticates (a 400 from the controller, not a 401) and is faulty.
      const known = await get(svc, `/mlds?id=main&layout=nope&${spelling}`);
      assert.equal(known.json.code, 'MLDS_UNKNOWN_LAYOUT', spelling);
      const unknown = await get(svc, `/mlds?${spelling}&id=ghost&layout=x`);
      assert.equal(unknown.json.code, 'MLDS_UNKNOWN_ID', spelling);
      const status = await get(svc, '/status', asApi);
      const main = (status.json.displays as Array<{ lastFault: { query: string } }>)[0];
      assert.match(main.lastFault.query, /layout=nope&.*=\*\*\*$/, 'the fault is recorded, its key masked');
      assert.match((status.json.recentFaults as Array<{ query: string }>)[0].query, /^.*=\*\*\*&id=ghost/);
      for (const part of SECRET_PARTS)
        assert.ok(!status.text.includes(part), `${spelling}: the admin key is on /status`);
      const info = await get(svc, '/info', asApi);
      for (const part of SECRET_PARTS) assert.ok(!info.text.includes(part), `${spelling}: the admin key is on /info`);
    }
    // The header is never logged either.
    assert.equal((await get(svc, '/status', { headers: { 'X-API-Key': ADMIN_KEY } })).status, 200);
    child.kill('SIGTERM');
    await once(child, 'exit');
    const file = readFileSync(path.join(logDir, 'mlds.log'), 'utf8');
    for (const [where, text] of [
      ['mlds.log', file],
      ['stdout', stdout],
    ]) {
      assert.match(text, /"msg":"faulty command"/, `${where} has the faulty commands`);
      for (const part of SECRET_PARTS) assert.ok(!text.includes(part), `the admin key is in ${where}`);
      assert.ok(!text.includes(API_KEY), `the API key is in ${where}`);
    }
  } finally {
    child.kill('SIGKILL');
    sd.cleanup();
  }
});

test('an accepted command drops its key however the name is encoded; the saved state holds none', async () => {
  const sd = serviceDir(securedConfig());
  const svc = await start(sd);
  try {
    for (const spelling of KEY_SPELLINGS) {
      assert.equal((await get(svc, `/mlds?id=main&layout=l1&title=On&${spelling}`)).status, 200, spelling);
      const query = svc.controller().state('main').lastCommand!.query;
      assert.equal(query, 'id=main&layout=l1&title=On');
    }
  } finally {
    await svc.close();
  }
  try {
    const saved = readFileSync(path.join(sd.stateDir, 'state.json'), 'utf8');
    for (const part of SECRET_PARTS) assert.ok(!saved.includes(part), 'the admin key is in state.json');
  } finally {
    sd.cleanup();
  }
});

test('a view token cookie opens /screenshot with the API key set, and nothing else', async () => {
  const sd = serviceDir(securedConfig());
  const svc = await start(sd);
  // The service's own app keeps its tokens; a second app on the same service holds ours.
  const views = new ViewTokens();
  const server: Server = createHttpServer(
    createApp(svc.api, { info() {}, warn() {}, error() {} }, new LiveViews(), views),
    { info() {}, warn() {}, error() {} },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const app = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  const cookie = (token: string) => ({ headers: { Cookie: `${VIEW_COOKIE}=${token}` } });
  try {
    const token = views.issue();
    const shot = await get(app, '/screenshot?format=png', cookie(token));
    assert.equal(shot.status, 200);
    assert.equal(shot.headers.get('content-type'), 'image/png');
    assert.equal((await get(app, '/screenshot', cookie('made-up-token-made-up-token-made-up-00'))).status, 401);
    assert.equal((await get(app, '/screenshot')).status, 401);
    assert.equal((await get(app, '/mlds?id=main&layout=l1&title=x', cookie(token))).status, 401);
    assert.equal((await get(app, '/status', cookie(token))).status, 401);
    assert.equal((await get(app, '/reload_config', cookie(token))).status, 403);
    // A token from another app (another service instance) opens nothing here.
    assert.equal((await get(app, '/screenshot', cookie(new ViewTokens().issue()))).status, 401);
  } finally {
    server.closeAllConnections();
    server.close();
    await svc.close();
    sd.cleanup();
  }
});
