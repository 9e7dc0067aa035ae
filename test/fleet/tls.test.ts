// TLS to a real Mosquitto with certificates made by openssl: the broker's certificate is
// always verified (with the configured CA; without it, or for another name, refused) and a
// broker that requires a client certificate gets one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Broker, hasMosquitto, makeCertificates } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Facts = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let dir: string, certs: ReturnType<typeof makeCertificates>;

before(() => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'mlds-certs-'));
  certs = makeCertificates(dir);
});
after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

/** Starts a service against `broker` with `mqtt` fields; resolves with its fleet facts once `done` holds. */
async function attempt(broker: Broker, mqtt: Record<string, unknown>, done: (f: Facts) => boolean): Promise<Facts> {
  const cfg = baseConfig();
  cfg.mqtt = { url: broker.url, unit: 'tls1', keepalive: 5, ...mqtt };
  const sd = serviceDir(cfg);
  const svc = await start(sd);
  try {
    let facts: Facts = {};
    await until(async () => done(facts = ((await get(svc, '/status')).json.components as Record<string, Facts>).fleet), 8000, 'the TLS outcome');
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=TLS')).status, 200, 'HTTP works whatever TLS does');
    return facts;
  } finally {
    await svc.close();
    sd.cleanup();
  }
}

test('TLS with the configured CA connects', { skip }, async () => {
  const broker = await new Broker({ tls: { ca: certs.ca, cert: certs.server, key: certs.serverKey } }).start();
  try {
    const f = await attempt(broker, { ca: certs.ca }, (x) => x.state === 'connected');
    assert.equal(f.broker, broker.url);
  } finally { await broker.cleanup(); }
});

test('TLS without the CA is refused: the broker\'s certificate cannot be verified', { skip }, async () => {
  const broker = await new Broker({ tls: { ca: certs.ca, cert: certs.server, key: certs.serverKey } }).start();
  try {
    const f = await attempt(broker, {}, (x) => /certificate/i.test(x.lastError ?? ''));
    assert.notEqual(f.state, 'connected');
    assert.match(f.lastError, /SELF_SIGNED|UNABLE_TO_GET_ISSUER|unable to (get|verify)/i);
  } finally { await broker.cleanup(); }
});

test('TLS to a broker whose certificate names another host is refused', { skip }, async () => {
  const broker = await new Broker({ tls: { ca: certs.ca, cert: certs.wrongName, key: certs.wrongNameKey } }).start();
  try {
    const f = await attempt(broker, { ca: certs.ca }, (x) => /ALTNAME|does not match|not in the cert/i.test(x.lastError ?? ''));
    assert.notEqual(f.state, 'connected');
  } finally { await broker.cleanup(); }
});

test('a broker that requires a client certificate takes the configured one, and refuses a unit without', { skip }, async () => {
  const broker = await new Broker({ tls: { ca: certs.ca, cert: certs.server, key: certs.serverKey, requireCertificate: true } }).start();
  try {
    const f = await attempt(broker, { ca: certs.ca, cert: certs.client, key: certs.clientKey }, (x) => x.state === 'connected');
    assert.equal(f.state, 'connected');
    const without = await attempt(broker, { ca: certs.ca }, (x) => x.reconnects >= 1);
    assert.notEqual(without.state, 'connected');
    assert.ok(without.lastError);
  } finally { await broker.cleanup(); }
});
