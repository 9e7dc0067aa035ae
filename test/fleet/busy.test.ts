// MQTT commands count against `rateLimit` as HTTP requests do, in one-second windows per
// command topic: the rest are shed unapplied, confirmed 0 MLDS_BUSY and counted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
let broker: Broker, sd: ServiceDir, svc: RunningService, w: Watcher;

const confirms = () => w.on('mlds/u1/confirm').map((s) => JSON.parse(s.payload) as Obj);
// Read in-process: HTTP shares the tight rate limit this test sets.
const fleet = async () => svc.api.status().components.fleet as Obj;

before(async () => {
  if (skip) return;
  broker = await new Broker().start();
  const cfg = baseConfig();
  cfg.rateLimit = '5';
  cfg.mqtt = { url: broker.url, unit: 'u1', groups: ['depot1'], keepalive: 5 };
  sd = serviceDir(cfg);
  w = await Watcher.open(broker.url, ['mlds/u1/confirm']);
  svc = await start(sd);
  await until(async () => (await fleet()).state === 'connected', 5000, 'connected');
});

after(async () => {
  if (skip) return;
  const maybe = { svc, w, broker, sd } as Partial<{ svc: RunningService; w: Watcher; broker: Broker; sd: ServiceDir }>;
  await maybe.svc?.close();
  await maybe.w?.close();
  await maybe.broker?.cleanup();
  maybe.sd?.cleanup();
});

test(
  'over `rateLimit` a second on a topic, commands are shed: confirm 0 MLDS_BUSY, not applied, counted on /status ' +
    'and /metrics',
  { skip },
  async () => {
    const N = 30;
    await Promise.all(
      Array.from({ length: N }, (_, i) => w.publish('mlds/u1/cmd', `id=main&layout=l1&title=Rate+${i}&inumber=r${i}`)),
    );
    // Within the same second, the group topic has a window of its own.
    await w.publish('mlds/group/depot1/cmd', 'id=main&layout=l1&title=Group&inumber=g1');
    await until(() => confirms().length === N + 1, 5000, 'a confirmation of every command');
    const busy = confirms().filter((c) => c.code === 'MLDS_BUSY');
    // Fixed one-second windows: a burst across a boundary gets two windows' worth.
    assert.ok(busy.length >= N - 10, `${busy.length} of ${N} shed`);
    for (const c of busy) {
      assert.equal(c.confirm, 0);
      assert.match(c.message, /more than 5 commands per second on mlds\/u1\/cmd \(rateLimit\)/);
    }
    const taken = confirms().filter((c) => c.confirm === 1);
    assert.equal(taken.length, N + 1 - busy.length);
    assert.ok(taken.every((c) => c.message === 'shown' || c.message === 'superseded'));
    assert.equal(
      confirms().find((c) => c.inumber === 'g1')?.confirm,
      1,
      'the group topic was not limited by the unit topic',
    );
    const f = await fleet();
    assert.equal(f.commands.shed, busy.length);
    assert.equal(f.commands.applied, taken.length);
    // What was shed never reached the display: every title it showed came from a command confirmed 1.
    const shown = new Set(taken.map((c) => c.inumber));
    assert.ok(shown.has(svc.controller().state('main').lastCommand?.inumber ?? ''));
    const metrics = (await get(svc, '/metrics')).text;
    assert.match(
      metrics,
      new RegExp(`^mlds_commands_total\\{source="mqtt",result="busy",mqtt_unit="u1"\\} ${busy.length}$`, 'm'),
    );
  },
);
