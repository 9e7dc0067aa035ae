import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fetchLimited, type FetchProgress } from '../../src/fetch/fetch-limited.js';
import { checkUrl, describeUrl } from '../../src/fetch/url-rules.js';
import { until } from '../helpers/wait.js';
import { mldsErrorOf } from '../helpers/mlds-error.js';

const payload = Buffer.alloc(300_000, 7);
let base = '';
let server: http.Server;
/** Set when the server saw the client hang up before it had sent everything. */
const cutShort: string[] = [];
const hits: string[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    const m = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (m) {
      const n = Number(m[1]);
      res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : '/data' }).end();
      return;
    }
    switch (url.pathname) {
      case '/data':
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': payload.length }).end(payload);
        return;
      case '/chunked':
        res.writeHead(200).end(payload);
        return;
      case '/missing':
        res.writeHead(404).end('no');
        return;
      case '/to-port':
        res.writeHead(301, { location: `http://127.0.0.1:${url.searchParams.get('p')}/data` }).end();
        return;
      case '/to-ftp':
        res.writeHead(307, { location: 'ftp://127.0.0.1/data' }).end();
        return;
      case '/to-relative-80':
        res.writeHead(302, { location: '//127.0.0.1:80/data' }).end();
        return;
      case '/no-location':
        res.writeHead(302).end();
        return;
      case '/big-declared':
        res.writeHead(200, { 'content-length': 50_000_000 }).end();
        return;
      case '/endless': {
        // Chunked and never ending: only counting what arrives can stop it.
        res.writeHead(200);
        const chunk = Buffer.alloc(16_384, 1);
        let finished = false;
        res.on('close', () => {
          if (!finished) cutShort.push('/endless');
        });
        const pump = () => {
          while (res.write(chunk)) {
            /* fill the socket */
          }
        };
        res.on('drain', pump);
        pump();
        setTimeout(() => {
          finished = true;
          res.end();
        }, 20_000).unref();
        return;
      }
      case '/stall':
        res.writeHead(200, { 'content-length': 1000 });
        res.write(Buffer.alloc(10));
        return; // never ends
      default:
        res.writeHead(500).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const failure = (p: Promise<unknown>) => mldsErrorOf(p, 'the fetch to fail');

test('a body arrives whole in memory or in a new file, with progress up to the total', async () => {
  const seen: FetchProgress[] = [];
  const r = await fetchLimited(`${base}/data`, { onProgress: (p) => seen.push(p), progressStep: 100_000 });
  assert.deepEqual(r.body, payload);
  assert.equal(r.contentType, 'application/zip');
  assert.ok(seen.length >= 3, `progress reported ${seen.length} times`);
  assert.deepEqual(seen.at(-1), { received: payload.length, total: payload.length, done: true });
  assert.ok(seen.every((p, i) => i === 0 || p.received >= seen[i - 1].received));

  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-fetch-'));
  try {
    const file = path.join(dir, 'a.zip');
    const f = await fetchLimited(`${base}/chunked`, { toFile: file });
    assert.equal(f.body, undefined);
    assert.deepEqual(readFileSync(file), payload);
    // O_EXCL: an existing file is never overwritten.
    writeFileSync(path.join(dir, 'b.zip'), 'keep');
    await assert.rejects(fetchLimited(`${base}/data`, { toFile: path.join(dir, 'b.zip') }), /EEXIST/);
    assert.equal(readFileSync(path.join(dir, 'b.zip'), 'utf8'), 'keep');
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('URL rules: http(s) only, no credentials, a written port within 1025..65535 or the given range', async () => {
  for (const [url, why] of [
    ['ftp://127.0.0.1:2121/a.zip', /http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /http:\/\/ or https:\/\//],
    ['not a url', /valid absolute URL/],
    ['http://127.0.0.1:80/a.zip', /port 80/],
    ['http://127.0.0.1:1024/a.zip', /port 1024/],
    ['http://[::1]:22/a.zip', /port 22/],
    ['http://127.0.0.1:70000/a.zip', /port 70000/],
    ['http://admin:s3cret@127.0.0.1:8080/a.zip', /user name or password/],
  ] as const) {
    const err = await failure(fetchLimited(url));
    assert.equal(err.code, 'MLDS_BAD_URL', url);
    assert.equal(err.status, 400);
    assert.equal(err.field, 'url');
    assert.match(err.message, why, url);
    assert.doesNotMatch(err.message, /s3cret/);
  }
  assert.equal(checkUrl('http://example.com/a.zip').port, '');
  assert.equal(checkUrl('https://example.com:1025/a').port, '1025');
  assert.equal(checkUrl('http://[::1]:65535/').port, '65535');
  assert.equal(checkUrl('http://127.0.0.1:80/', [80, 90]).hostname, '127.0.0.1');
  assert.equal(describeUrl('http://u:p@h:9000/a?key=secret'), 'http://h:9000/a?…');
});

test('a 404, a refused connection and a redirect without Location are MLDS_FETCH_FAILED (502)', async () => {
  const e404 = await failure(fetchLimited(`${base}/missing`));
  assert.equal(e404.code, 'MLDS_FETCH_FAILED');
  assert.equal(e404.status, 502);
  assert.equal(e404.details?.httpStatus, 404);
  assert.match(e404.message, /HTTP 404/);

  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const refused = await failure(fetchLimited(`http://127.0.0.1:${port}/x`));
  assert.equal(refused.code, 'MLDS_FETCH_FAILED');
  assert.match(refused.message, /ECONNREFUSED/);

  assert.equal((await failure(fetchLimited(`${base}/no-location`))).details?.reason, 'redirect');
});

test('up to 3 redirects are followed; a 4th fails; every hop is checked against the URL rules', async () => {
  const r = await fetchLimited(`${base}/redirect/3`);
  assert.equal(r.redirects, 3);
  assert.equal(r.url, `${base}/data`);
  assert.deepEqual(r.body, payload);

  const tooMany = await failure(fetchLimited(`${base}/redirect/4`));
  assert.equal(tooMany.code, 'MLDS_FETCH_FAILED');
  assert.equal(tooMany.details?.reason, 'redirects');
  assert.equal((await failure(fetchLimited(`${base}/redirect/2`, { maxRedirects: 1 }))).details?.reason, 'redirects');

  for (const target of [`${base}/to-port?p=80`, `${base}/to-port?p=1000`, `${base}/to-ftp`, `${base}/to-relative-80`]) {
    const err = await failure(fetchLimited(target));
    assert.equal(err.code, 'MLDS_FETCH_FAILED', target);
    assert.equal(err.details?.reason, 'redirect-refused', target);
  }
  // With a narrow range, a redirect to a port allowed by default is refused, and never requested.
  const own = Number(new URL(base).port);
  hits.length = 0;
  assert.equal((await fetchLimited(`${base}/to-port?p=${own}`, { portRange: [own, own] })).bytes, payload.length);
  const to1025 = await failure(fetchLimited(`${base}/to-port?p=1025`, { portRange: [own, own] }));
  assert.equal(to1025.details?.reason, 'redirect-refused');
  assert.deepEqual(hits, ['/to-port', '/data', '/to-port'], 'the refused hop was never requested');
});

test(
  'a body over the limit fails as MLDS_FETCH_TOO_LARGE as ' +
    'soon as the limit is passed, whatever Content-Length says',
  async () => {
    const declared = await failure(fetchLimited(`${base}/big-declared`));
    assert.equal(declared.code, 'MLDS_FETCH_TOO_LARGE');
    assert.equal(declared.status, 502);

    const chunked = await failure(fetchLimited(`${base}/chunked`, { maxBytes: 100_000 }));
    assert.equal(chunked.code, 'MLDS_FETCH_TOO_LARGE');

    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-fetch-'));
    try {
      const endless = await failure(
        fetchLimited(`${base}/endless`, { maxBytes: 1_000_000, toFile: path.join(dir, 'x.zip') }),
      );
      assert.equal(endless.code, 'MLDS_FETCH_TOO_LARGE');
      assert.deepEqual(readdirSync(dir), [], 'the partial file is removed');
      await until(() => cutShort.includes('/endless'), 5000, 'the server to see the download stop early');
    } finally {
      rmSync(dir, { recursive: true });
    }
  },
);

test(
  'a fetch that does not finish within its time limit ' + 'fails as MLDS_FETCH_TIMEOUT (504) and leaves no file',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-fetch-'));
    try {
      const file = path.join(dir, 'slow.zip');
      const err = await failure(fetchLimited(`${base}/stall`, { timeoutMs: 200, toFile: file }));
      assert.equal(err.code, 'MLDS_FETCH_TIMEOUT');
      assert.equal(err.status, 504);
      assert.equal(existsSync(file), false);
    } finally {
      rmSync(dir, { recursive: true });
    }
  },
);
