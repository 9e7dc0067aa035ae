// ascii light sensors on socat pty pairs fed by the test, in the running service: a unit's own
// sensor, and a shared sensor driving two units. The own sensor is unplugged (socat killed): it
// keeps its last value with a warning on /status, and reconnects by itself once plugged back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { ptyPair, ptyUnavailable, type PtyPair } from './pty.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('ascii sensors on a pty pair: own and shared, unplug and replug', { skip: ptyUnavailable() }, async () => {
  const own = await ptyPair(),
    shared = await ptyPair();
  const lux = new Map<PtyPair, number>([
    [own, 500],
    [shared, 250],
  ]);
  const plugged = new Set<PtyPair>([own, shared]);
  // A sensor sends a reading every 40 ms; the service reads the newest one every 100 ms.
  const feeder = setInterval(() => {
    for (const p of plugged) {
      try {
        p.write(`${lux.get(p)}\r\n`);
      } catch {
        /* unplugging */
      }
    }
  }, 40);
  const c = baseConfig();
  const base = c.displays.main;
  c.displays = {
    led: {
      ...base,
      displayPort: '9001',
      sensor: {
        protocol: 'ascii',
        path: own.device,
        baudRate: 9600,
        pollMs: 100,
        curve: [
          [0, 0],
          [1000, 100],
        ],
      },
    },
    lcd1: { ...base, displayPort: '9002' },
    lcd2: { ...base, displayPort: '9003' },
  };
  c.sensors = [
    {
      protocol: 'ascii',
      path: shared.device,
      pollMs: 100,
      curve: [
        [0, 10],
        [1000, 90],
      ],
      displays: ['lcd1', 'lcd2'],
    },
  ];
  const sd = serviceDir(c);
  let svc: RunningService | undefined;
  try {
    svc = await start(sd);
    const status = async () => (await get(svc!, '/status')).json as Obj;
    const levels = async () => {
      const st = await status();
      const out = Object.fromEntries(st.displays.map((d: Obj) => [d.id, d.output.details.brightness]));
      const b = st.components.brightness;
      return { out, b, units: Object.fromEntries(b.units.map((u: Obj) => [u.id, [u.mode, u.brightness]])) };
    };
    await until(
      async () => JSON.stringify((await levels()).out) === JSON.stringify({ led: 50, lcd1: 30, lcd2: 30 }),
      10_000,
      'sensor levels on the outputs',
    );
    let l = await levels();
    assert.deepEqual(l.units, { led: ['sensor', 50], lcd1: ['shared-sensor', 30], lcd2: ['shared-sensor', 30] });
    const ownStatus = () => l.b.sensors.find((s: Obj) => s.device === own.device);
    assert.equal(ownStatus().connected, true);
    assert.equal(ownStatus().lux, 500);
    assert.deepEqual(l.b.sensors.find((s: Obj) => s.device === shared.device).displays, ['lcd1', 'lcd2']);
    assert.match(l.b.units[0].source, new RegExp(`^sensor ${own.device}: 500 lx$`));

    lux.set(own, 800);
    lux.set(shared, 1000);
    await until(
      async () => JSON.stringify((await levels()).out) === JSON.stringify({ led: 80, lcd1: 90, lcd2: 90 }),
      10_000,
      'new light levels followed',
    );

    // Unplugged: the last value holds, with a warning, while the service tries to reopen it.
    plugged.delete(own);
    await own.unplug();
    await until(
      async () => {
        l = await levels();
        return ownStatus().connected === false;
      },
      10_000,
      'the unplug noticed',
    );
    assert.match(ownStatus().warning, /disconnected|cannot open/);
    assert.ok(l.b.warnings.some((w: string) => w.startsWith(`sensor ${own.device}: `)));
    assert.deepEqual(l.units.led, ['sensor', 80], 'the last value holds');
    assert.equal(l.out.led, 80);
    const info = (await get(svc, '/info')).text;
    assert.match(info, /not connected/);

    // Plugged back in: it reconnects by itself and follows the light again.
    lux.set(own, 300);
    await own.plug();
    plugged.add(own);
    await until(
      async () => {
        l = await levels();
        return l.out.led === 30;
      },
      15_000,
      'readings after the replug',
    );
    assert.equal(ownStatus().connected, true);
    assert.ok(ownStatus().reconnects >= 1);
    assert.equal(ownStatus().warning, undefined);
    assert.deepEqual(l.units.led, ['sensor', 30]);
  } finally {
    clearInterval(feeder);
    await svc?.close();
    sd.cleanup();
    await own.close();
    await shared.close();
  }
});
