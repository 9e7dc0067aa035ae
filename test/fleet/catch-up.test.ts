// Catch-up after an outage through a real Mosquitto: MQTT 5 persistent sessions bring the QoS 1
// commands sent while a unit was stopped, in order and once each, when it returns (across a
// broker restart too, with the broker's persistence on); a renamed unit starts a clean session;
// brightness and blank set through desired state are there again after a restart.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const dirs: ServiceDir[] = [];
const brokers: Broker[] = [];
const watchers: Watcher[] = [];
const running = new Set<RunningService>();
const dbs: string[] = [];

after(async () => {
  for (const s of running) await s.close();
  for (const w of watchers) await w.close();
  for (const b of brokers) await b.cleanup();
  for (const d of dirs) d.cleanup();
  for (const d of dbs) rmSync(d, { recursive: true, force: true });
});

async function setup(persist = false): Promise<{ broker: Broker; w: Watcher }> {
  let settings: string[] = [];
  if (persist) {
    // Mosquitto started as root writes its database as the `mosquitto` user.
    const db = mkdtempSync(path.join(tmpdir(), 'mlds-broker-db-'));
    chmodSync(db, 0o777);
    dbs.push(db);
    settings = ['persistence true', `persistence_location ${db}/`];
  }
  const broker = new Broker({ settings });
  brokers.push(broker);
  await broker.start();
  return { broker, w: await watch(broker) };
}

async function watch(broker: Broker): Promise<Watcher> {
  const w = await Watcher.open(broker.url, ['mlds/#']);
  watchers.push(w);
  return w;
}

function unitDir(url: string, unit: string, extra: Obj = {}): ServiceDir {
  const cfg = baseConfig();
  cfg.mqtt = { url, unit, keepalive: 5, ...extra };
  const sd = serviceDir(cfg);
  dirs.push(sd);
  return sd;
}

async function run(sd: ServiceDir, w: Watcher, unit: string): Promise<RunningService> {
  const seen = w.on(`mlds/${unit}/availability`).length;
  const svc = await start(sd);
  running.add(svc);
  const online = () =>
    w
      .on(`mlds/${unit}/availability`)
      .slice(seen)
      .some((s) => s.payload === 'online');
  await until(online, 10_000, `${unit} online`);
  return svc;
}

async function stop(svc: RunningService): Promise<void> {
  running.delete(svc);
  await svc.close();
}

const confirms = (w: Watcher, unit: string) => w.on(`mlds/${unit}/confirm`).map((s) => JSON.parse(s.payload) as Obj);
const title = (svc: RunningService) => svc.controller().state('main').areas.get('title')?.text;

/** Five QoS 1 commands to a stopped unit; then the unit returns and a sixth marks the end of what was queued. */
async function awayAndBack(
  sent: Watcher,
  sd: ServiceDir,
  unit: string,
  between?: () => Promise<Watcher>,
  caughtUp?: (svc: RunningService) => void,
): Promise<{ svc: RunningService; w: Watcher }> {
  for (let i = 1; i <= 5; i++) {
    await sent.publish(`mlds/${unit}/cmd`, `id=main&layout=l1&title=T${i}&inumber=${unit}-${i}`, { qos: 1 });
  }
  const w = (await between?.()) ?? sent;
  const svc = await run(sd, w, unit);
  const five = () => confirms(w, unit).filter((c) => /-[1-5]$/.test(String(c.inumber))).length >= 5;
  await until(five, 10_000, 'five confirmations');
  caughtUp?.(svc);
  await w.publish(`mlds/${unit}/cmd`, `id=main&layout=l1&title=Last&inumber=${unit}-6`, { qos: 1 });
  await until(() => confirms(w, unit).some((c) => c.inumber === `${unit}-6`), 10_000, 'the sixth');
  return { svc, w };
}

function checkCaughtUp(w: Watcher, svc: RunningService, unit: string): void {
  const got = confirms(w, unit).filter((c) => String(c.inumber).startsWith(`${unit}-`));
  // (`before` went to the first run; the unit's name prefixes only what was sent while it was away.)
  assert.deepEqual(
    got.map((c) => c.inumber),
    [1, 2, 3, 4, 5, 6].map((i) => `${unit}-${i}`),
    'each once, in order',
  );
  const carriedOut = (c: Obj) => c.confirm === 1 || (c.confirm === 0 && /not written/.test(String(c.message)));
  assert.ok(got.every(carriedOut), JSON.stringify(got));
  assert.equal((svc.api.status().components.fleet as Obj).commands.applied, 6);
  assert.equal(title(svc), 'Last');
}

test('QoS 1 commands sent while a unit is stopped arrive when it returns, in order, each once', { skip }, async () => {
  const { broker, w } = await setup();
  const sd = unitDir(broker.url, 'k1');
  const first = await run(sd, w, 'k1');
  // A request saved before the stop: the boot replay restores it, and must not replace what the broker queued.
  await w.publish('mlds/k1/cmd', 'id=main&layout=l1&title=Before&inumber=before', { qos: 1 });
  await until(() => confirms(w, 'k1').some((c) => c.inumber === 'before'), 10_000, 'before');
  await stop(first);
  const { svc } = await awayAndBack(w, sd, 'k1', undefined, (s) => {
    assert.equal(title(s), 'T5', 'the last queued command shows, not the replayed one');
  });
  checkCaughtUp(w, svc, 'k1');
  assert.equal((svc.api.status().components.fleet as Obj).sessionExpiry, 86400);
  await stop(svc);
});

test("they arrive across a broker restart too, with the broker's persistence on", { skip }, async () => {
  const { broker, w } = await setup(true);
  const sd = unitDir(broker.url, 'k2');
  await stop(await run(sd, w, 'k2'));
  const back = await awayAndBack(w, sd, 'k2', async () => {
    await broker.stop();
    await broker.start();
    return watch(broker);
  });
  checkCaughtUp(back.w, back.svc, 'k2');
  const svc = back.svc;
  await stop(svc);
});

test('sessionExpiry 0 keeps nothing: commands sent while away are lost', { skip }, async () => {
  const { broker, w } = await setup();
  const sd = unitDir(broker.url, 'k3', { sessionExpiry: 0 });
  await stop(await run(sd, w, 'k3'));
  await w.publish('mlds/k3/cmd', 'id=main&layout=l1&title=Away&inumber=k3-1', { qos: 1 });
  const svc = await run(sd, w, 'k3');
  await w.publish('mlds/k3/cmd', 'id=main&layout=l1&title=Back&inumber=k3-2', { qos: 1 });
  await until(() => confirms(w, 'k3').some((c) => c.inumber === 'k3-2'), 10_000, 'k3-2');
  assert.deepEqual(
    confirms(w, 'k3').map((c) => c.inumber),
    ['k3-2'],
  );
  await stop(svc);
});

test(
  'a unit renamed since its last session starts clean: what was queued for another unit of that name is not its',
  { skip },
  async () => {
    const { broker, w } = await setup();
    // The old unit n2 leaves a session with a command queued in it.
    const old = unitDir(broker.url, 'n2');
    await stop(await run(old, w, 'n2'));
    await w.publish('mlds/n2/cmd', 'id=main&layout=l1&title=ForTheOld&inumber=n2-old', { qos: 1 });
    // Another unit, whose last session was n1, is renamed n2.
    const sd = unitDir(broker.url, 'n1');
    await stop(await run(sd, w, 'n1'));
    assert.equal(JSON.parse(readFileSync(path.join(sd.stateDir, 'mqtt-session.json'), 'utf8')).clientId, 'mlds-n1');
    const cfg = JSON.parse(readFileSync(sd.configFile, 'utf8')) as Obj;
    cfg.mqtt.unit = 'n2';
    writeFileSync(sd.configFile, JSON.stringify(cfg));
    const svc = await run(sd, w, 'n2');
    await w.publish('mlds/n2/cmd', 'id=main&layout=l1&title=New&inumber=n2-new', { qos: 1 });
    await until(() => confirms(w, 'n2').some((c) => c.inumber === 'n2-new'), 10_000, 'n2-new');
    assert.deepEqual(
      confirms(w, 'n2').map((c) => c.inumber),
      ['n2-new'],
    );
    const kept = () => readFileSync(path.join(sd.stateDir, 'mqtt-session.json'), 'utf8').includes('"mlds-n2"');
    await until(kept, 5000, 'the new name kept');
    await stop(svc);
  },
);

test('brightness and blank set through desired state are there again after a restart', { skip }, async () => {
  const { broker, w } = await setup();
  const sd = unitDir(broker.url, 'k4');
  let svc = await run(sd, w, 'k4');
  const unit = () => (svc.api.status().components.brightness as Obj).units[0] as Obj;
  await w.publish('mlds/k4/desired', JSON.stringify({ rev: 1, brightness: 30, blank: true }), { retain: true });
  await until(() => unit().brightness === 30 && unit().blanked === true, 10_000, 'brightness 30, blanked');
  await stop(svc);
  svc = await run(sd, w, 'k4');
  await until(() => unit().brightness === 30 && unit().blanked === true, 10_000, 'as set after the restart');
  assert.match(String(unit().source), /^manual: 30 % set by .*fleet/);
  await stop(svc);
});
