// Confirmations over MQTT that say what happened: a burst is confirmed `shown` only for what a
// frame carried out.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { sink, type Sink } from '../helpers/sink.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
let broker: Broker, sd: ServiceDir, svc: RunningService, w: Watcher, fb: Sink;

const status = async () => (await get(svc, '/status')).json as Obj;

before(async () => {
  if (skip) return;
  fb = await sink();
  broker = await new Broker().start();
  const cfg = baseConfig();
  cfg.displays.main.confirmIp = '127.0.0.1';
  cfg.displays.main.confirmPort = String(fb.port);
  cfg.mqtt = { url: broker.url, unit: 'u1', groups: ['depot1'], keepalive: 5 };
  sd = serviceDir(cfg);
  w = await Watcher.open(broker.url, ['mlds/u1/confirm']);
  svc = await start(sd, { logDir: path.join(sd.dir, 'log'), feedback: { firstDelayMs: 10 } });
  await until(async () => (await status()).components.fleet?.state === 'connected', 5000, 'connected');
});

after(async () => {
  if (skip) return;
  const maybe = { svc, w, broker, fb, sd } as Partial<{ svc: RunningService; w: Watcher; broker: Broker; fb: Sink; sd: ServiceDir }>;
  await maybe.svc?.close();
  await maybe.w?.close();
  await maybe.broker?.cleanup();
  maybe.fb?.close();
  maybe.sd?.cleanup();
});

test('a burst: `shown` for at most one command per frame sent, `superseded` (confirm 1) for the rest, counted on /status', { skip }, async (t) => {
  const s0 = await status();
  const N = 300;
  await Promise.all(Array.from({ length: N }, (_, i) => w.publish('mlds/u1/cmd', `id=main&layout=l1&title=Burst+${i}&inumber=b${i}`)));
  const burst = () => w.on('mlds/u1/confirm').map((s) => JSON.parse(s.payload) as Obj).filter((c) => /^b\d+$/.test(c.inumber));
  await until(() => burst().length === N, 20_000, 'a confirmation of every command');
  const s1 = await status();
  const frames = s1.displays[0].frames.sent - s0.displays[0].frames.sent;
  const by = (m: string) => burst().filter((c) => c.message === m).length;
  t.diagnostic(`${N} commands: ${frames} frames sent, ${by('shown')} shown, ${by('superseded')} superseded`);
  assert.ok(burst().every((c) => c.confirm === 1 && c.code === null));
  assert.equal(by('shown') + by('superseded'), N);
  assert.ok(by('shown') <= frames, `${by('shown')} shown with ${frames} frames`);
  assert.equal(burst().find((c) => c.inumber === `b${N - 1}`)?.message, 'shown', 'the last one is on the panel');
  assert.equal(s1.commands.superseded - s0.commands.superseded, by('superseded'));
});
