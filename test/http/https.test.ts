// HTTPS with certificates the test makes with openssl: the same endpoints as plain HTTP on
// their own port, a renewed certificate under the same file names picked up by a reload,
// and unreadable, non-PEM, encrypted or mismatched files refused as configuration faults
// (at start, and on reload while the running certificate keeps serving).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { once } from 'node:events';
import { connect } from 'node:net';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { freePort } from '../helpers/ports.js';
import { selfSigned } from '../helpers/certs.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

/** A self-signed certificate for 127.0.0.1 and its key, as PEM files in `dir`. */
function makeCert(dir: string, name: string, cn: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  selfSigned(cert, key, `/CN=${cn}`, 'IP:127.0.0.1');
  return { cert, key };
}

/** One request on a fresh TLS connection that trusts only `ca`; what came back and which certificate served it. */
function tlsGet(
  port: number,
  p: string,
  ca: Buffer,
): Promise<{ status: number; json: Record<string, unknown>; served: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: p, ca, agent: false }, (res) => {
      const served = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().fingerprint256;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          json: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>,
          served,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const fingerprint = (file: string) => new X509Certificate(readFileSync(file)).fingerprint256;

test(
  'HTTPS serves the same endpoints, takes a renewed certificate on reload, and refuses a bad pair without ' +
    'dropping the good one',
  async () => {
    const c = baseConfig();
    const sd = serviceDir(c);
    const tls = path.join(sd.dir, 'tls');
    mkdirSync(tls);
    const first = makeCert(tls, 'unit', 'mlds-first');
    const port = await freePort();
    // The certificate relative to the service directory, the key absolute: both forms work.
    c.https = { cert: 'tls/unit.crt', key: first.key, port: String(port) };
    writeFileSync(sd.configFile, JSON.stringify(c));
    const svc = await start(sd);
    try {
      const ca1 = readFileSync(first.cert);
      const status = await tlsGet(port, '/status', ca1);
      assert.equal(status.status, 200);
      assert.equal(status.served, fingerprint(first.cert));
      const https = (status.json.components as { https: Record<string, unknown> }).https;
      assert.equal(https.listening, true);
      assert.equal(https.port, port);
      assert.match(String(https.subject), /CN=mlds-first/);
      assert.equal(https.certSha256, fingerprint(first.cert));
      assert.equal((await tlsGet(port, '/mlds?id=main&layout=l1&title=secure', ca1)).json.result, 'command received');
      assert.match(
        svc.controller().state('main').lastCommand!.query,
        /title=secure/,
        'the command arrived through TLS',
      );
      // Limits hold over TLS too.
      assert.equal((await tlsGet(port, `/status?${'a'.repeat(13_000)}`, ca1)).json.code, 'MLDS_URL_TOO_LONG');

      // Renewed under the same names: a reload swaps it in.
      const renewed = makeCert(tls, 'next', 'mlds-renewed');
      writeFileSync(path.join(tls, 'unit.crt'), readFileSync(renewed.cert));
      writeFileSync(first.key, readFileSync(renewed.key));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      const ca2 = readFileSync(renewed.cert);
      const after = await tlsGet(port, '/status', ca2);
      assert.equal(after.served, fingerprint(renewed.cert));
      assert.ok((after.json.components as { https: { renewedAt?: string } }).https.renewedAt);

      // A key of another certificate: a fault at /https/key, and the renewed pair keeps serving.
      const other = makeCert(tls, 'other', 'mlds-other');
      writeFileSync(first.key, readFileSync(other.key));
      const refused = await get(svc, '/reload_config');
      assert.equal(refused.status, 400);
      assert.equal(refused.json.code, 'MLDS_CONFIG_INVALID');
      const faults = refused.json.faults as Array<{ path: string; message: string }>;
      assert.deepEqual(
        faults.map((f) => f.path),
        ['/https/key'],
      );
      assert.match(faults[0].message, /do not match/);
      assert.equal((await tlsGet(port, '/status', ca2)).served, fingerprint(renewed.cert));
      const statusFaults = ((await get(svc, '/status')).json.config as { faults: Array<{ path: string }> }).faults;
      assert.deepEqual(
        statusFaults.map((f) => f.path),
        ['/https/key'],
        'the fault shows on /status',
      );
    } finally {
      await svc.close();
    }
    // Closed with the service.
    await assert.rejects(tlsGet(port, '/status', readFileSync(path.join(tls, 'unit.crt'))));
    sd.cleanup();
  },
);

test(
  'a missing, non-PEM or encrypted certificate or key, or ' +
    'the HTTP port, is a configuration fault naming the field',
  async () => {
    const sd = serviceDir(baseConfig());
    const tls = path.join(sd.dir, 'tls');
    mkdirSync(tls);
    const good = makeCert(tls, 'good', 'mlds');
    writeFileSync(path.join(tls, 'garbage.pem'), 'not a certificate\n');
    execFileSync(
      'openssl',
      [
        'genpkey',
        '-algorithm',
        'EC',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-aes256',
        '-pass',
        'pass:secret',
        '-out',
        path.join(tls, 'locked.key'),
      ],
      { stdio: 'ignore' },
    );
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ cert: 'tls/missing.crt', key: good.key }, '/https/cert', /missing\.crt does not exist/],
      [{ cert: 'tls/garbage.pem', key: good.key }, '/https/cert', /garbage\.pem holds no PEM certificate/],
      [{ cert: good.cert, key: 'tls/garbage.pem' }, '/https/key', /garbage\.pem holds no PEM private key/],
      [{ cert: good.cert, key: 'tls/locked.key' }, '/https/key', /encrypted with a passphrase/],
      [{ cert: good.cert, key: 'tls' }, '/https/key', /is not a regular file/],
      [{ cert: good.cert, key: good.key, port: '9199' }, '/https/port', /must differ from port \(9199\)/],
    ];
    try {
      for (const [https, where, message] of cases) {
        const c = baseConfig();
        c.https = { port: '9443', ...https };
        writeFileSync(sd.configFile, JSON.stringify(c));
        await assert.rejects(start(sd), (err: unknown) => {
          assert.ok(err instanceof ConfigError, String(err));
          assert.deepEqual(
            err.faults.map((f) => f.path),
            [where],
            JSON.stringify(err.faults),
          );
          assert.match(err.faults[0].message, message);
          return true;
        });
      }
    } finally {
      sd.cleanup();
    }
  },
);

test(
  'HTTPS with every connection taken: a new one is served in place of the one waiting longest (a handshake ' +
    'never begun), not of a live view',
  async () => {
    const c = baseConfig();
    const sd = serviceDir(c);
    const tls = path.join(sd.dir, 'tls');
    mkdirSync(tls);
    const pair = makeCert(tls, 'unit', 'mlds-slots');
    const port = await freePort();
    c.https = { cert: pair.cert, key: pair.key, port: String(port) };
    c.limits = { maxConnections: '3', maxStreams: '1', headersTimeoutMs: '30000' };
    writeFileSync(sd.configFile, JSON.stringify(c));
    const svc = await start(sd);
    const ca = readFileSync(pair.cert);
    const sockets: import('node:net').Socket[] = [];
    try {
      // The oldest connection, busy with its answer: a live view over TLS.
      const view = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/screenshot?stream=1&id=main', ca, agent: false },
          resolve,
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(view.statusCode, 200);
      view.on('data', () => undefined);
      let viewClosed = false;
      view.socket.on('close', () => {
        viewClosed = true;
      });
      // Two connections that never start their handshake take the other slots.
      const closed: boolean[] = [];
      for (let i = 0; i < 2; i++) {
        const s = connect({ port, host: '127.0.0.1' });
        s.on('error', () => undefined);
        s.on('close', () => {
          closed[i] = true;
        });
        await once(s, 'connect');
        sockets.push(s);
      }
      const r = await tlsGet(port, '/status', ca);
      assert.equal(r.status, 200);
      await until(() => closed[0] === true, 3000, 'the first silent connection to be closed');
      assert.equal(closed[1], undefined, 'the second silent connection stays');
      assert.equal(viewClosed, false, 'the live view stays');
      view.destroy();
    } finally {
      for (const s of sockets) s.destroy();
      await svc.close();
      sd.cleanup();
    }
  },
);
