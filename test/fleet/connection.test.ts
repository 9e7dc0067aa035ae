// The broker is never in the way: a real Mosquitto that is
// absent at start, restarted, frozen with SIGSTOP, refusing the login; a service killed
// with SIGKILL; two units with one name.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { freePort } from '../helpers/ports.js';
import { cliStart, baseConfig, get, REPO, serviceDir, start, until } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Facts = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const fleet = async (svc: { url: string }) =>
  ((await get(svc, '/status')).json.components as Record<string, Facts>).fleet;
const showsOnHttp = async (svc: RunningService, text: string) => {
  const r = await get(svc, `/mlds?id=main&layout=l1&title=${text}`);
  assert.equal(r.status, 200, r.text);
  assert.equal(svc.controller().state('main').areas.get('title')?.text, text);
};

function mqttConfig(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const cfg = baseConfig();
  cfg.mqtt = { url, unit: 'u1', keepalive: 2, ...extra };
  return cfg;
}

test(
  'broker down at start: HTTP works, the unit connects when the broker appears; after a broker restart status ' +
    'and availability are back',
  { skip },
  async () => {
    const port = await freePort();
    const broker = new Broker({ port });
    const sd = serviceDir(mqttConfig(`mqtt://127.0.0.1:${port}`));
    const svc = await start(sd);
    let w: Watcher | undefined;
    try {
      await showsOnHttp(svc, 'NoBroker');
      await until(async () => (await fleet(svc)).reconnectAttempts >= 1, 5000, 'a retry');
      const f = await fleet(svc);
      assert.notEqual(f.state, 'connected');
      assert.match(f.lastError, /ECONNREFUSED/);
      await broker.start();
      await until(async () => (await fleet(svc)).state === 'connected', 8000, 'connected once the broker is up');
      w = await Watcher.open(broker.url, ['mlds/u1/#']);
      await until(
        () => w!.on('mlds/u1/availability').length > 0 && w!.on('mlds/u1/status').length > 0,
        3000,
        'retained online and status',
      );
      assert.equal(w.on('mlds/u1/availability')[0].payload, 'online');
      await w.close();

      // Restart without persistence: the broker forgot every retained message.
      await broker.stop();
      await until(async () => (await fleet(svc)).state !== 'connected', 3000, 'the loss noticed');
      await showsOnHttp(svc, 'BrokerGone');
      await broker.start();
      await until(async () => (await fleet(svc)).state === 'connected', 8000, 'reconnected');
      w = await Watcher.open(broker.url, ['mlds/u1/#']);
      await until(
        () => w!.on('mlds/u1/availability').length > 0 && w!.on('mlds/u1/status').length > 0,
        3000,
        'fresh online and status after the restart',
      );
      assert.equal(w.on('mlds/u1/availability')[0].retain, true);
      assert.match(w.on('mlds/u1/status')[0].payload, /"text":"BrokerGone"/);
    } finally {
      await w?.close();
      await svc.close();
      await broker.cleanup();
      sd.cleanup();
    }
  },
);

test(
  'broker restarts: reconnects counts the connections made again, reconnectAttempts every attempt, apart on ' +
    '/status, /metrics and /info',
  { skip },
  async () => {
    const port = await freePort();
    const broker = await new Broker({ port }).start();
    const sd = serviceDir(mqttConfig(`mqtt://127.0.0.1:${port}`));
    const svc = await start(sd);
    try {
      await until(async () => (await fleet(svc)).state === 'connected', 5000, 'connected');
      assert.deepEqual(
        [(await fleet(svc)).reconnects, (await fleet(svc)).reconnectAttempts],
        [0, 0],
        'the first connection is no reconnection',
      );
      const RESTARTS = 2;
      for (let i = 1; i <= RESTARTS; i++) {
        const before = (await fleet(svc)).reconnectAttempts as number;
        await broker.stop();
        // At least one attempt finds the broker away before it is back.
        await until(
          async () => (await fleet(svc)).reconnectAttempts > before,
          20_000,
          `an attempt while the broker is down (${i})`,
        );
        await broker.start();
        await until(async () => (await fleet(svc)).state === 'connected', 40_000, `connected again (${i})`);
      }
      const f = await fleet(svc);
      assert.equal(f.reconnects, RESTARTS, `${f.reconnects} reconnections after ${RESTARTS} restarts`);
      assert.ok(
        f.reconnectAttempts >= 2 * RESTARTS,
        `${f.reconnectAttempts} attempts: at least one failed and one through per restart`,
      );
      const metrics = (await get(svc, '/metrics')).text;
      assert.match(metrics, new RegExp(`^mlds_broker_reconnects_total\\{[^}]*\\} ${RESTARTS}$`, 'm'));
      assert.match(
        metrics,
        new RegExp(`^mlds_broker_reconnect_attempts_total\\{[^}]*\\} ${f.reconnectAttempts}$`, 'm'),
      );
      assert.match(
        (await get(svc, '/info')).text,
        new RegExp(`${RESTARTS} reconnects <span class="note">\\(${f.reconnectAttempts} attempts\\)`),
      );
    } finally {
      await svc.close();
      await broker.cleanup();
      sd.cleanup();
    }
  },
);

test('kill -9 of the service: the broker publishes the retained offline within 1.5 keepalives', { skip }, async () => {
  const broker = await new Broker().start();
  const sd = serviceDir(mqttConfig(broker.url));
  const w = await Watcher.open(broker.url, ['mlds/u1/availability']);
  const child = spawn(process.execPath, cliStart(sd, '--state-dir', sd.stateDir), { cwd: REPO, stdio: 'ignore' });
  try {
    await until(() => w.seen.some((s) => s.payload === 'online'), 20_000, 'online');
    const killedAt = Date.now();
    child.kill('SIGKILL');
    await until(() => w.seen.some((s) => s.payload === 'offline'), 3000, 'offline');
    const offline = w.seen.find((s) => s.payload === 'offline')!;
    assert.ok(offline.at - killedAt <= 3000, `offline after ${offline.at - killedAt} ms`);
    const late = await Watcher.open(broker.url, ['mlds/u1/availability']);
    await until(() => late.seen.length > 0, 2000, 'the retained availability');
    assert.deepEqual([late.seen[0].payload, late.seen[0].retain], ['offline', true]);
    await late.close();
  } finally {
    child.kill('SIGKILL');
    await w.close();
    await broker.cleanup();
    sd.cleanup();
  }
});

test(
  'a broker frozen with SIGSTOP: the unit notices within the keepalive, HTTP keeps working, it reconnects once ' +
    'the broker runs again',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const sd = serviceDir(mqttConfig(broker.url));
    const svc = await start(sd);
    try {
      await until(async () => (await fleet(svc)).state === 'connected', 5000, 'connected');
      broker.freeze();
      await until(async () => (await fleet(svc)).state !== 'connected', 8000, 'the frozen broker noticed');
      await showsOnHttp(svc, 'Frozen');
      broker.thaw();
      await until(
        async () => (await fleet(svc)).state === 'connected' && (await fleet(svc)).reconnects >= 1,
        15_000,
        'reconnected after the thaw',
      );
    } finally {
      broker.thaw();
      await svc.close();
      await broker.cleanup();
      sd.cleanup();
    }
  },
);

test(
  'wrong credentials: refused, shown on /status, retried with a growing backoff, HTTP unaffected',
  { skip },
  async () => {
    const broker = await new Broker({ users: { u1: 'right-password' } }).start();
    const sd = serviceDir(mqttConfig(broker.url, { username: 'u1', password: 'wrong-password' }));
    const svc = await start(sd);
    try {
      await until(async () => (await fleet(svc)).state === 'refused', 5000, 'refused');
      assert.match((await fleet(svc)).lastError, /refused the login: (bad user name or password|not authorized)/);
      await showsOnHttp(svc, 'Refused');
      const info = await get(svc, '/info');
      assert.match(info.text, /data-component="fleet"[\s\S]*<td class="bad">refused[\s\S]*refused the login/);
      // the passing of time is what is tested: how many attempts 7 s of refused logins make.
      await new Promise((r) => setTimeout(r, 7000));
      const f = await fleet(svc);
      // MQTT.js alone retries every second: 7 attempts in 7 s. Backing off 1, 2, 4 s (× 0.5..1) gives at most 4.
      assert.ok(f.reconnectAttempts >= 1 && f.reconnectAttempts <= 4, `${f.reconnectAttempts} attempts in 7 s`);
      assert.equal(f.reconnects, 0, 'no connection made');
      assert.equal(f.state, 'refused');
      const problems = (await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>;
      assert.ok(
        problems.some((p) => p.source === 'mqtt' && /not connected to the broker .*refused the login/.test(p.message)),
        'listed in problems after 3 keepalives',
      );
    } finally {
      await svc.close();
      await broker.cleanup();
      sd.cleanup();
    }
  },
);

test('two units with one name: the client id in use is detected and shown', { skip }, async () => {
  const broker = await new Broker().start();
  const sdA = serviceDir(mqttConfig(broker.url));
  const sdB = serviceDir(mqttConfig(broker.url));
  const a = await start(sdA);
  try {
    await until(async () => (await fleet(a)).state === 'connected', 5000, 'A connected');
    const b = await start(sdB);
    try {
      await until(
        async () => (await fleet(a)).clientIdInUse !== null || (await fleet(b)).clientIdInUse !== null,
        15_000,
        'a unit told its id was taken',
      );
      const f = (await fleet(a)).clientIdInUse ? await fleet(a) : await fleet(b);
      assert.equal(f.clientIdInUse.times >= 1, true);
      assert.match(f.lastError, /another client connected with the client id "mlds-u1"/);
      const flagged = (await fleet(a)).clientIdInUse ? a : b;
      const problems = (await get(flagged, '/status')).json.problems as Array<{ source: string; message: string }>;
      assert.ok(problems.some((p) => p.source === 'mqtt' && /two units with the unit name "u1"/.test(p.message)));
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
    await broker.cleanup();
    sdA.cleanup();
    sdB.cleanup();
  }
});
