// Inventory and time on a real unit through Debian's mosquitto: the retained status says where
// the unit is, what it runs and how its clock stands; a clock 90 s fast and unsynchronized is a
// problem on /status and in /metrics, and a command with `ts` refused as stale says why.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { systemClock } from '../../src/util/clock.js';
import type { ClockSync } from '../../src/time/clock-sync.js';
import type { RunningService } from '../../src/main.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;

test(
  'the retained status carries the inventory and the clock; a clock 90 s fast is a problem, a metric, and the ' +
    'reason a command is stale',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const c = baseConfig();
    c.mqtt = { url: broker.url, unit: 'inv1', groups: ['north', 'all'], statusIntervalSeconds: 3600 };
    c.maxClockSkew = '2';
    const sd = serviceDir(c);
    const w = await Watcher.open(broker.url, ['mlds/inv1/#']);
    // What chrony says of a clock 90 s fast that lost its server; the unit's clock is that fast.
    const reading: ClockSync = { source: 'chrony', synchronized: false, offsetMs: 90_000, server: '192.0.2.1' };
    let svc: RunningService | undefined;
    try {
      svc = await start(sd, {
        clock: { ...systemClock, now: () => Date.now() + 90_000 },
        clockSync: { read: async () => reading },
      });
      const health = async () => ((await get(svc!, '/status')).json.components as Obj).health.clock as Obj;
      await until(async () => (await health()).offsetMs === 90_000, 10_000, "the clock's reading on /status");
      const status = (await get(svc, '/status')).json as Obj;
      assert.ok(
        (status.problems as Obj[]).some(
          (p) =>
            p.source === 'clock' &&
            /90 s ahead of its time source \(chrony\), more than maxClockSkew \(2 s\)/.test(p.message),
        ),
        JSON.stringify(status.problems),
      );
      const metrics = (await get(svc, '/metrics')).text;
      assert.match(metrics, /^mlds_clock_offset_seconds\{[^}]*\} 90$/m);
      assert.match(metrics, /^mlds_clock_skew_exceeded\{[^}]*\} 1$/m);
      assert.match(metrics, /^mlds_clock_synchronized\{[^}]*\} 0$/m);

      // A command sent now is 90 s old by the unit's clock: refused, saying the clock is not synchronized.
      await w.publish(
        'mlds/inv1/cmd',
        JSON.stringify({ id: 'main', layout: 'l1', areas: { title: 'Now' }, inumber: 's1', ts: Date.now() }),
      );
      const confirm = () =>
        w
          .on('mlds/inv1/confirm')
          .map((m) => JSON.parse(m.payload) as Obj)
          .find((x) => x.inumber === 's1');
      await until(() => confirm() !== undefined, 10_000, "the stale command's confirmation");
      assert.equal(confirm()!.code, 'MLDS_MQTT_STALE');
      assert.match(confirm()!.message, /this unit's clock is not synchronized \(90 s ahead of its time source\)/);

      // A command without ts changes the state: the status goes out with the inventory.
      await w.publish('mlds/inv1/cmd', 'id=main&layout=l1&title=Hello&inumber=h1');
      const last = () =>
        w
          .on('mlds/inv1/status')
          .map((m) => JSON.parse(m.payload) as Obj)
          .at(-1);
      await until(
        () => last()?.clock?.offsetMs === 90_000 && last()?.displays?.[0]?.text === 'Hello',
        15_000,
        'a retained status with the clock',
      );
      const s = last()!;
      assert.equal(s.host.hostname, hostname());
      assert.ok(Array.isArray(s.host.addresses));
      for (const a of s.host.addresses) assert.match(a.mac, /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
      assert.deepEqual(s.groups, ['north', 'all']);
      assert.equal(s.digest, status.config.digest);
      assert.match(s.digest, /^[0-9a-f]{64}$/);
      assert.deepEqual(s.clock, { synchronized: false, offsetMs: 90_000, source: 'chrony' });
      assert.equal(typeof s.version, 'string');
      assert.equal(typeof s.uptimeSeconds, 'number');
      assert.ok(Buffer.byteLength(JSON.stringify(s)) <= 2048);
    } finally {
      await svc?.close();
      await w.close();
      await broker.stop();
      sd.cleanup();
    }
  },
);
