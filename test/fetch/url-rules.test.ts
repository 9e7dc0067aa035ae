// The written-port rule judged on the URL the fetcher uses: URL() accepts `http:host:1000/`,
// `http:/host:1000/`, `HTTP:host:1000/` and leading control characters, and each once reached
// port 1000 past a rule that looked for a port only after `//`.
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { MldsError } from '../../src/errors.js';
import { fetchLimited } from '../../src/fetch/fetch-limited.js';
import { checkUrl } from '../../src/fetch/url-rules.js';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';

/** A server on a port below 1025 (we are root here), counting what reaches it. */
async function lowPortServer(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end('PK');
  });
  for (const port of [1000, 1001, 1002, 999, 998]) {
    try {
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      return {
        port: (server.address() as AddressInfo).port,
        hits: () => hits,
        close: () => new Promise((r) => server.close(() => r())),
      };
    } catch {
      /* taken: the next one */
    }
  }
  throw new Error('no free port below 1025');
}

const forms = (port: number) => [
  `http:127.0.0.1:${port}/x.zip`,
  `http:/127.0.0.1:${port}/x.zip`,
  `HTTP:127.0.0.1:${port}/x.zip`,
  `\u0001http://127.0.0.1:${port}/x.zip`,
  ` http://127.0.0.1:${port}/x.zip`,
  `http:\\\\127.0.0.1:${port}/x.zip`,
  `http://127.0.0.1\t:${port}/x.zip`,
  `http://127.0.0.1:${port}/x.zip`,
  `HTTP://127.0.0.1:${port}/x.zip`,
  `http://127.0.0.1:0${port}/x.zip`,
];

test('no spelling of a URL reaches a port outside the range: the fetcher is never called', async () => {
  const srv = await lowPortServer();
  try {
    for (const url of forms(srv.port)) {
      await assert.rejects(
        fetchLimited(url),
        (e: unknown) => e instanceof MldsError && e.code === 'MLDS_BAD_URL',
        JSON.stringify(url),
      );
    }
    assert.equal(srv.hits(), 0);
    // The same server is reachable when the range allows its port: the refusals above are the rule's.
    const ok = await fetchLimited(`http://127.0.0.1:${srv.port}/x.zip`, { portRange: [1, 65535] });
    assert.equal(ok.body?.toString(), 'PK');
    assert.equal(srv.hits(), 1);
  } finally {
    await srv.close();
  }
});

test('/load_config?url= in every spelling is a 400 naming url, and nothing is fetched', async () => {
  const srv = await lowPortServer();
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    for (const url of forms(srv.port)) {
      const r = await get(svc, `/load_config?url=${encodeURIComponent(url)}`);
      assert.equal(r.status, 400, JSON.stringify(url));
      assert.equal(r.json.code, 'MLDS_BAD_URL');
      assert.equal(r.json.field, 'url');
    }
    assert.equal(srv.hits(), 0);
  } finally {
    await svc.close();
    sd.cleanup();
    await srv.close();
  }
});

test('a refused written port says why and how to widen the range', () => {
  assert.throws(
    () => checkUrl('http://127.0.0.1:80/a.zip'),
    /port 80.*1025\.\.65535.*leave the port out.*urlPortRange/,
  );
  assert.equal(checkUrl('http://127.0.0.1/a.zip').port, '');
  assert.equal(checkUrl('HTTPS://example.com:8443/a').port, '8443');
  assert.equal(checkUrl('http://127.0.0.1:80/', [80, 90]).port, '');
});

test("/load_config?url= follows the configuration's urlPortRange, as every other fetched URL does", async () => {
  const srv = await lowPortServer();
  const c = baseConfig();
  c.urlPortRange = [1, 65535];
  const sd = serviceDir(c);
  const svc = await start(sd);
  try {
    // 'PK' alone is no archive: fetched (the range allowed it), then refused as an archive.
    const r = await get(svc, `/load_config?url=${encodeURIComponent(`http://127.0.0.1:${srv.port}/x.zip`)}`);
    assert.equal(srv.hits(), 1);
    assert.notEqual(r.json.code, 'MLDS_BAD_URL');
  } finally {
    await svc.close();
    sd.cleanup();
    await srv.close();
  }
});
