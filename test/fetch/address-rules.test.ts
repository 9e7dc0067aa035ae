// The rules on where a fetch may go, on real loopback servers: the unit's own API in every
// spelling of its addresses, links that leave their host, fetch.allowHosts, and a configured
// URL on the local network that must keep working. The public side is in public-private.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { MldsError } from '../../src/errors.js';
import { addressClass } from '../../src/fetch/addresses.js';
import { guardedLookup, type FetchTrail } from '../../src/fetch/address-rules.js';
import { fetchLimited } from '../../src/fetch/fetch-limited.js';
import { ownApiPorts } from '../../src/fetch/own-api.js';
import { setFetchUnitName } from '../../src/fetch/user-agent.js';
import { closeServer, listen } from '../../src/http/listen.js';
import { VERSION } from '../../src/version.js';
import { REPO } from '../helpers/service.js';
import { selfSigned } from '../helpers/certs.js';
import type { Outcome } from './fetch-child.js';
import { finished } from './public-ns.js';
import { mldsErrorOf } from '../helpers/mlds-error.js';

/** A server counting what reaches it; `own` listens through the HTTP layer's listen(), as the unit's API does. */
interface Counted {
  server: http.Server;
  port: number;
  hits: string[];
  agents: string[];
}

function countingServer(answer: (url: URL, res: http.ServerResponse) => void = (_u, res) => res.end('ok')): Counted {
  const c: Counted = { server: undefined as unknown as http.Server, port: 0, hits: [], agents: [] };
  c.server = http.createServer((req, res) => {
    c.hits.push(req.url ?? '');
    c.agents.push(req.headers['user-agent'] ?? '');
    answer(new URL(req.url ?? '/', 'http://x'), res);
  });
  return c;
}

/** Bodies sent with a Content-Encoding, by path: the coding and the bytes. */
const PACKED: Record<string, [string, () => Buffer]> = {
  gzip: ['gzip', () => gzipSync('packed with gzip')],
  deflate: ['deflate', () => deflateSync('packed with deflate')],
  br: ['br', () => brotliCompressSync('packed with br')],
  bomb: ['gzip', () => gzipSync(Buffer.alloc(20 * 1024 * 1024))],
};

let own: Counted;
let lan: Counted;
let lanBase = '';

before(async () => {
  // On every address, as a unit listens by default: a request to any of them would land.
  own = countingServer();
  own.port = await listen(own.server, 0, '0.0.0.0');
  lan = countingServer((u, res) => {
    if (u.pathname === '/to') return void res.writeHead(302, { location: u.searchParams.get('url')! }).end();
    const packed = PACKED[u.pathname.slice(1)];
    if (packed) return void res.writeHead(200, { 'content-encoding': packed[0] }).end(packed[1]());
    res.end(`lan ${u.pathname}`);
  });
  await new Promise<void>((r) => lan.server.listen(0, '127.0.0.1', r));
  lan.port = (lan.server.address() as AddressInfo).port;
  lanBase = `http://127.0.0.1:${lan.port}`;
});
after(async () => {
  await closeServer(own.server);
  lan.server.closeAllConnections();
  lan.server.close();
});

/** The LAN server's redirect to `url`. */
const to = (url: string) => `${lanBase}/to?url=${encodeURIComponent(url)}`;

const refusal = (p: Promise<unknown>) => mldsErrorOf(p, 'the fetch to be refused');

test('addresses are classed as the rules need: loopback, private, link-local, unique-local, the rest public', () => {
  const cases: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['::ffff:192.168.1.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00::2', 'unique-local'],
    ['fc12::1', 'unique-local'],
    ['100.64.0.1', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['ff02::fb', 'multicast'],
    ['255.255.255.255', 'reserved'],
    // NAT64 reaches the IPv4 address it carries.
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['8.8.8.8', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['172.32.0.1', 'public'],
    ['198.51.100.7', 'public'],
    ['203.0.113.9', 'public'],
  ];
  for (const [address, cls] of cases) assert.equal(addressClass(address), cls, address);
});

test("the unit's own API is never fetched, at any of its addresses in any spelling", async () => {
  assert.ok(ownApiPorts().includes(own.port), 'listen() tells the fetch layer');
  const lanAddresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal)
    .map((a) => a!);
  const hosts = [
    '127.0.0.1',
    '127.0.0.2',
    'localhost',
    'LOCALHOST',
    hostname(),
    '0.0.0.0',
    '0',
    '[::ffff:127.0.0.1]',
    '[::1]',
    '[::]',
    '2130706433',
    ...lanAddresses.map((a) => (a.family === 'IPv6' ? `[${a.address}]` : a.address)),
  ];
  const urls = hosts.map((h) => `http://${h}:${own.port}/load_config?url=x`);
  for (const url of urls) {
    const err = await refusal(fetchLimited(url, { field: 'feeds/x/url' }));
    assert.equal(err.code, 'MLDS_URL_REFUSED', `${url}: ${err.message}`);
    assert.equal(err.status, 400);
    assert.equal(err.field, 'feeds/x/url');
    assert.equal(err.details?.rule, 'own-api', url);
    assert.match(err.message, /rule "own-api" \(MLDS_URL_REFUSED\): .* is this unit's own API/);
  }
  assert.deepEqual(own.hits, [], 'nothing reached the API');

  // A redirect from the local network to the API is refused at the redirect.
  const err = await refusal(fetchLimited(to(`http://localhost:${own.port}/mlds?id=main`)));
  assert.equal(err.code, 'MLDS_URL_REFUSED');
  assert.match(err.message, /reached by a redirect/);
  assert.deepEqual(own.hits, []);

  const other = countingServer();
  const port = await listen(other.server, 0, '127.0.0.1');
  await closeServer(other.server);
  const gone = await refusal(fetchLimited(`http://127.0.0.1:${port}/`));
  assert.equal(gone.code, 'MLDS_FETCH_FAILED', 'a closed server is only a refused connection');
});

test('a configured URL may point at the local network: loopback at another port, a redirect within it', async () => {
  const r = await fetchLimited(`${lanBase}/feed`);
  assert.equal(r.body!.toString(), 'lan /feed');
  assert.equal(r.reachedPublic, false);
  const via = await fetchLimited(to(`http://localhost:${lan.port}/moved`));
  assert.equal(via.body!.toString(), 'lan /moved');
  assert.equal(via.redirects, 1);
});

test('a link read from a document stays on its host unless fetch.allowHosts names another', async () => {
  const doc = await fetchLimited(`${lanBase}/feed.xml`);
  lan.hits.length = 0;
  const same = await fetchLimited(`${lanBase}/alert-1.xml`, { linkedFrom: doc, allowHosts: [] });
  assert.equal(same.body!.toString(), 'lan /alert-1.xml');

  // The same machine under another name is another host.
  const elsewhere = `http://localhost:${lan.port}/alert-2.xml`;
  const err = await refusal(fetchLimited(elsewhere, { linkedFrom: doc, allowHosts: [], field: 'alerts/0/url' }));
  assert.equal(err.code, 'MLDS_URL_REFUSED');
  assert.equal(err.details?.rule, 'other-host');
  assert.match(err.message, /fetched document\) is refused by the rule "other-host".*fetch\.allowHosts/);
  assert.deepEqual(lan.hits, ['/alert-1.xml'], 'the other host was not asked');

  const allowed = await fetchLimited(elsewhere, { linkedFrom: doc, allowHosts: ['localhost'] });
  assert.equal(allowed.body!.toString(), 'lan /alert-2.xml');

  // A link on its own host may not redirect to another one either.
  const hop = await refusal(fetchLimited(to(`http://localhost:${lan.port}/alert-3.xml`), { linkedFrom: doc }));
  assert.equal(hop.details?.rule, 'other-host');

  const api = await refusal(
    fetchLimited(`http://localhost:${own.port}/load_config?url=x`, { linkedFrom: doc, allowHosts: ['localhost'] }),
  );
  assert.equal(api.details?.rule, 'own-api');
  // After a public document, no link leads into the local network, listed or not.
  const fromPublic = await refusal(
    fetchLimited(`${lanBase}/alert-4.xml`, { linkedFrom: { ...doc, reachedPublic: true }, allowHosts: ['127.0.0.1'] }),
  );
  assert.equal(fromPublic.details?.rule, 'public-to-private');
  assert.deepEqual(own.hits, []);
});

test("every address a name resolves to is checked in the connection's lookup: one refused refuses all", async () => {
  const url = new URL('http://two-faced.example:8080/');
  const trail: FetchTrail = { reachedPublic: true, via: 'redirect', field: 'url' };
  const both = [
    { address: '198.51.100.7', family: 4 },
    { address: '10.0.0.5', family: 4 },
  ];
  const lookup = guardedLookup(url, trail, (_host, _o, cb) => cb(null, both));
  const err = await new Promise<Error | null>((resolve) => {
    lookup('two-faced.example', { all: true }, resolve);
  });
  assert.ok(err instanceof MldsError);
  assert.equal(err.details?.rule, 'public-to-private');
  assert.equal(err.details?.address, '10.0.0.5');
  const ok = guardedLookup(url, trail, (_host, _o, cb) => cb(null, [{ address: '198.51.100.7', family: 4 }]));
  const one = await new Promise<string>((resolve, reject) => {
    ok('two-faced.example', {}, (e, a) => (e ? reject(e) : resolve(a as string)));
  });
  assert.equal(one, '198.51.100.7');
});

test('fetches say who asks; bodies come decoded, and the cap counts decoded bytes', async () => {
  setFetchUnitName('sign.031 (north)');
  try {
    lan.agents.length = 0;
    await fetchLimited(to(`${lanBase}/ua`));
    assert.deepEqual(lan.agents, [`mlds/${VERSION} (sign.031 _north_)`, `mlds/${VERSION} (sign.031 _north_)`]);
  } finally {
    setFetchUnitName(hostname());
  }
  for (const coding of ['gzip', 'deflate', 'br']) {
    const r = await fetchLimited(`${lanBase}/${coding}`);
    assert.equal(r.body!.toString(), `packed with ${coding}`);
  }
  const bomb = await refusal(fetchLimited(`${lanBase}/bomb`, { maxBytes: 1024 * 1024 }));
  assert.equal(bomb.code, 'MLDS_FETCH_TOO_LARGE');
});

test('HTTPS: the certificate is checked against the name, and bodies and redirects work as over HTTP', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-tls-'));
  const [cert, key] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
  selfSigned(cert, key, '/CN=localhost', 'DNS:localhost');
  const server = https.createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
    if (req.url === '/to-lan') return void res.writeHead(302, { location: `${lanBase}/after-tls` }).end();
    res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(`tls ${req.url}`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    // The certificate authority is the process's own (NODE_EXTRA_CA_CERTS), so the fetches run in a child.
    const base = `https://localhost:${port}`;
    const cases = [`${base}/feed`, `${base}/to-lan`, `https://127.0.0.1:${port}/feed`].map((url) => ({ url }));
    const argv = ['--import', 'tsx', path.join(REPO, 'test/fetch/fetch-child.ts'), JSON.stringify(cases)];
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: cert };
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = (await finished(child)).trim().split('\n');
    const [feed, redirected, wrongName] = lines.map((l) => JSON.parse(l) as Outcome);
    assert.deepEqual(feed, { ok: true, body: 'tls /feed', reachedPublic: false, redirects: 0 });
    assert.deepEqual(redirected, { ok: true, body: 'lan /after-tls', reachedPublic: false, redirects: 1 });
    assert.ok(!wrongName.ok && wrongName.code === 'MLDS_FETCH_FAILED', JSON.stringify(wrongName));
    assert.match(wrongName.message, /ERR_TLS_CERT_ALTNAME_INVALID/);
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
