// The brightness precedence as sources fail and come back, on the injected clock with mock
// serial devices: the unit's sensor, then a shared sensor (which also drives a second unit),
// then brightness-schedule.json, then daylight; the sensor back takes over again; a manual
// value rules until a reload turns sensorBrightness off. Each hand-over shows on /status.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SerialPortMock } from 'serialport';
import { STALE_AFTER_MS } from '../../src/brightness/sensors/sensor.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, serviceDir, until } from '../helpers/service.js';
import { fakeRuntime } from '../helpers/fake-runtime.js';

// @serialport/binding-mock, reached through serialport (its own package has no types under NodeNext).
const MockBinding = SerialPortMock.binding;
type MockPortBinding = Awaited<ReturnType<typeof MockBinding.open>>;

test('precedence: sources fail and come back, each hand-over visible', async () => {
  MockBinding.reset();
  const ports = new Map<string, MockPortBinding>();
  const binding = {
    open: async (o: { path: string; baudRate: number }) => {
      const p = await MockBinding.open(o);
      ports.set(o.path, p);
      return p;
    },
  };
  const plug = (p: string) => MockBinding.createPort(p, { echo: false, record: false });
  const unplug = async (p: string) => {
    await ports.get(p)?.close();
    ports.delete(p);
    MockBinding.reset();
  };
  plug('/dev/ttyMOCKA');
  plug('/dev/ttyMOCKB');

  const c = baseConfig();
  const base = c.displays.main;
  c.latitude = 52.23;
  c.longitude = 21.01;
  c.timezone = 'Europe/Warsaw';
  c.displays = {
    led: {
      ...base,
      displayPort: '9001',
      sensorBrightness: true,
      sensor: {
        protocol: 'ascii',
        path: '/dev/ttyMOCKA',
        pollMs: 60_000,
        curve: [
          [0, 0],
          [1000, 100],
        ],
      },
    },
    lcd: { ...base, displayPort: '9002' },
  };
  c.sensors = [
    {
      protocol: 'ascii',
      path: '/dev/ttyMOCKB',
      pollMs: 60_000,
      curve: [
        [0, 0],
        [1000, 100],
      ],
      displays: ['led', 'lcd'],
    },
  ];
  const sd = serviceDir(c);
  const file = path.join(sd.dir, 'brightness-schedule.json');
  writeFileSync(
    file,
    JSON.stringify({
      rampMinutes: 0,
      periods: [{ from: '01-01', sunrise: '06:00', sunset: '18:00', day: 77, night: 33 }],
    }),
  );
  const clock = new FakeClock(Date.parse('2026-11-21T11:00:00Z'));
  const rt = await fakeRuntime(sd, clock, { link: { binding: async () => binding } });
  const units = () => Object.fromEntries(rt.component.status().units.map((u) => [u.id, u]));
  const modes = () => Object.fromEntries(Object.entries(units()).map(([id, u]) => [id, [u.mode, u.brightness]]));
  const sensors = () => rt.component.status().sensors;
  const readNow = (name: string) =>
    sensors().find((s) => s.name === name)!.lastReadingAt === new Date(clock.now()).toISOString();
  /** Timers of the component itself on the clock, besides the sensors' own. */
  let own = 0;
  /**
   * One poll period: both plugged sensors send a line and are read; then the minute passes, and
   * each sensor is waiting for its next line or has its next attempt to open on the clock.
   */
  const minute = async (a: number | undefined, b: number | undefined) => {
    const sent: string[] = [];
    for (const [lux, device, name] of [
      [a, '/dev/ttyMOCKA', 'displays/led/sensor'],
      [b, '/dev/ttyMOCKB', 'sensors/0'],
    ] as const) {
      const port = ports.get(device);
      if (lux === undefined || !port) continue;
      port.emitData(`${lux}\n`);
      sent.push(name);
    }
    await until(() => sent.every(readNow), 2000, `the line read by ${sent.join(' and ')}`);
    clock.advance(60_000);
    await until(
      () => clock.pending() === own + sensors().filter((s) => !s.connected).length,
      2000,
      "the minute's polls and attempts to open done",
    );
  };
  try {
    clock.advance(0);
    await until(() => rt.component.status().sensors.every((s) => s.connected), 2000, 'both sensors connected');
    own = clock.pending();
    await minute(300, 600);
    await until(() => units().led.mode === 'sensor' && units().lcd.mode === 'shared-sensor', 2000, 'sensor readings');
    assert.deepEqual(
      modes(),
      { led: ['sensor', 30], lcd: ['shared-sensor', 60] },
      "the unit's sensor beats the shared one; the shared one drives the other unit",
    );
    assert.deepEqual(rt.brightness(), { led: 30, lcd: 60 });
    const standby = units().led.sources.map((s) => [s.mode, s.state, s.value]);
    assert.deepEqual(standby, [
      ['sensor', 'in use', 30],
      ['shared-sensor', 'standing by', 60],
      ['schedule', 'standing by', 77],
    ]);

    // The unit's sensor unplugged: its last value holds (with a warning) for ten minutes, then the shared sensor takes
    // over.
    await unplug('/dev/ttyMOCKA');
    plug('/dev/ttyMOCKB'); // reset() forgot it; the open port goes on
    await until(
      () => !rt.component.status().sensors.find((s) => s.name === 'displays/led/sensor')!.connected,
      2000,
      'the loss noticed',
    );
    assert.deepEqual(modes(), { led: ['sensor', 30], lcd: ['shared-sensor', 60] });
    assert.ok(rt.component.status().warnings.some((w) => /sensor \/dev\/ttyMOCKA: disconnected/.test(w)));
    for (let i = 0; i < STALE_AFTER_MS / 60_000; i++) await minute(undefined, 600);
    await until(() => units().led.mode === 'shared-sensor', 2000, 'the shared sensor took over');
    let led = units().led;
    assert.equal(led.brightness, 60);
    assert.equal(led.handover!.from, 'sensor');
    assert.equal(led.handover!.to, 'shared-sensor');
    assert.match(
      led.handover!.reason,
      /^\/dev\/ttyMOCKA: no reading since 2026-11-21T11:0\d:00.000Z; cannot open \/dev\/ttyMOCKA/,
    );
    assert.deepEqual(rt.brightness(), { led: 60, lcd: 60 });

    // The shared sensor gone too: after ten minutes both units fall to the schedule file.
    await unplug('/dev/ttyMOCKB');
    for (let i = 0; i <= STALE_AFTER_MS / 60_000; i++) await minute(undefined, undefined);
    await until(() => units().lcd.mode === 'schedule', 2000, 'the schedule file took over');
    assert.deepEqual(modes(), { led: ['schedule', 77], lcd: ['schedule', 77] });
    assert.equal(units().led.handover!.from, 'sensor');
    assert.equal(units().lcd.handover!.from, 'shared-sensor');

    // No schedule file: daylight (it is day in Warsaw).
    rmSync(file);
    await until(() => units().lcd.mode === 'daylight', 3000, 'daylight took over');
    assert.deepEqual(modes(), { led: ['daylight', 100], lcd: ['daylight', 100] });
    assert.match(units().led.source, /^daylight schedule: day \(period from 11-16, sunrise 07:\d\d, sunset 15:\d\d\)$/);

    // The unit's sensor back: it rules again, and the hand-over is over.
    plug('/dev/ttyMOCKA');
    for (let i = 0; i < 3; i++) await minute(800, undefined);
    await until(() => units().led.mode === 'sensor', 3000, 'the sensor back');
    led = units().led;
    assert.equal(led.brightness, 80);
    assert.equal(led.handover, undefined);
    assert.deepEqual(rt.brightness(), { led: 80, lcd: 100 });

    // A manual value rules over everything, until a reload turns sensorBrightness off.
    await rt.component.setManual(['led'], 5);
    assert.deepEqual(modes(), { led: ['manual', 5], lcd: ['daylight', 100] });
    assert.deepEqual(rt.brightness(), { led: 5, lcd: 100 });
    c.displays.led.sensorBrightness = false;
    writeFileSync(sd.configFile, JSON.stringify(c));
    await rt.reload();
    assert.deepEqual(modes(), { led: ['sensor', 80], lcd: ['daylight', 100] });
    assert.deepEqual(rt.brightness(), { led: 80, lcd: 100 });
  } finally {
    await rt.stop();
    sd.cleanup();
    MockBinding.reset();
  }
});
