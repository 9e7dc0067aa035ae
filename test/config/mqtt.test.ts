// The `mqtt` section: defaults, faults naming the field, and the credentials (password,
// client key) never on /status, /info or in the log, while the /load_config download carries them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import { makeCertificates } from '../helpers/broker.js';
import { freePort } from '../helpers/ports.js';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

function faultsOf(mqtt: unknown, files: Record<string, string> = {}): Array<{ path: string; message: string }> {
  const cfg = baseConfig();
  cfg.mqtt = mqtt;
  const sd = serviceDir(cfg);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(sd.dir, name), text);
  try {
    loadConfig(sd.configFile);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.faults;
  } finally {
    sd.cleanup();
  }
}

test('mqtt takes its defaults: the hostname as unit, prefix mlds, keepalive 30, no groups, no Home Assistant', () => {
  const cfg = baseConfig();
  cfg.mqtt = { url: 'mqtt://127.0.0.1:1883' };
  const sd = serviceDir(cfg);
  try {
    const m = loadConfig(sd.configFile).mqtt!;
    assert.equal(m.unit, hostname().replace(/[/+#]/g, '_'));
    assert.equal(m.prefix, 'mlds');
    assert.equal(m.keepalive, 30);
    assert.deepEqual(m.groups, []);
    assert.equal(m.homeAssistant, false);
    assert.equal(loadConfig(serviceDir(baseConfig()).configFile).mqtt, undefined);
  } finally {
    sd.cleanup();
  }
});

test('a faulty mqtt section is refused with faults naming each field', () => {
  const at = (f: Array<{ path: string }>) => f.map((x) => x.path).sort();
  assert.deepEqual(at(faultsOf({ url: 'http://broker:1883' })), ['/mqtt/url']);
  assert.deepEqual(
    at(faultsOf({ url: 'mqtt://user:pw@broker:1883' })),
    ['/mqtt/url'],
    'credentials in the URL would be shown',
  );
  assert.deepEqual(at(faultsOf({ url: 'mqtt://b', unit: 'a/b' })), ['/mqtt/unit']);
  assert.deepEqual(at(faultsOf({ url: 'mqtt://b', groups: ['g+'] })), ['/mqtt/groups/0']);
  assert.deepEqual(at(faultsOf({ url: 'mqtt://b', keepalive: 0 })), ['/mqtt/keepalive']);
  assert.deepEqual(at(faultsOf({ url: 'mqtt://b', password: 'x' })), ['/mqtt/password']);
  assert.deepEqual(at(faultsOf({ url: 'mqtts://b', ca: 'missing.pem' })), ['/mqtt/ca']);
  assert.deepEqual(at(faultsOf({ url: 'mqtts://b', ca: 'ca.pem' }, { 'ca.pem': 'not a certificate' })), ['/mqtt/ca']);
  assert.ok(
    faultsOf({ url: 'mqtts://b', cert: 'c.pem' }).some((f) => f.path === '/mqtt/key' && /needs both/.test(f.message)),
  );
  assert.deepEqual(at(faultsOf({ url: 'mqtt://b', rejectUnauthorized: false })), ['/mqtt/rejectUnauthorized']);
});

test(
  'the password and the client key are never on /status, ' +
    '/info or in the log; the /load_config download carries them',
  async () => {
    const password = 'Pa55-never-shown-9f1c';
    const cfg = baseConfig();
    // A port nobody listens on: the unit tries, fails, logs why, and keeps serving HTTP.
    cfg.mqtt = {
      url: `mqtts://localhost:${await freePort()}`,
      username: 'u1',
      password,
      ca: 'tls/ca.pem',
      cert: 'tls/client.pem',
      key: 'tls/client.key',
      unit: 'u1',
    };
    const sd = serviceDir(cfg);
    mkdirSync(path.join(sd.dir, 'tls'));
    const certs = makeCertificates(path.join(sd.dir, 'tls'));
    const keyBody = readFileSync(certs.clientKey, 'utf8').split('\n')[1];
    const logDir = path.join(sd.dir, 'logs');
    const svc = await start(sd, { logDir });
    try {
      const logs = () =>
        readdirSync(logDir)
          .map((f) => readFileSync(path.join(logDir, f), 'utf8'))
          .join('\n');
      const fleetError = () => (svc.api.status().components as Record<string, Record<string, unknown>>).fleet.lastError;
      await until(
        () => fleetError() !== undefined && /mqtt: connection error/.test(logs()),
        10_000,
        'the failed connection on /status and in the log',
      );
      const status = await get(svc, '/status');
      assert.equal(status.status, 200);
      const fleet = (status.json.components as Record<string, Record<string, unknown>>).fleet;
      assert.ok(fleet.lastError, 'the failed connection is shown');
      const info = await get(svc, '/info');
      const log = logs();
      assert.match(log, /mqtt: connection error/);
      for (const [where, text] of [
        ['/status', status.text],
        ['/info', info.text],
        ['the log', log],
      ]) {
        assert.ok(!text.includes(password), `the password is in ${where}`);
        assert.ok(!text.includes(keyBody), `the client key is in ${where}`);
      }
      const res = await fetch(`${svc.url}/load_config`);
      assert.equal(res.status, 200);
      const zip = path.join(sd.dir, 'download.zip');
      writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
      const read = (name: string) =>
        execFileSync(
          'python3',
          [
            '-c',
            'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())',
            zip,
            name,
          ],
          { encoding: 'utf8' },
        );
      assert.equal(JSON.parse(read('config.json')).mqtt.password, password);
      assert.equal(read('tls/client.key'), readFileSync(certs.clientKey, 'utf8'));
      assert.equal(read('tls/ca.pem'), readFileSync(certs.ca, 'utf8'));
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
