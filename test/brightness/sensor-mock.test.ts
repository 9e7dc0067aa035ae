// Light sensors through the serial seam with serialport's own mock binding: the lux curve,
// smoothing and hysteresis; the Modbus RTU frames; an ascii and a Modbus RTU sensor read on the
// injected clock; an unplugged sensor keeping its last value with a warning and reconnecting by
// itself once the device is back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SerialPortMock } from 'serialport';
import { parseLuxLine } from '../../src/brightness/sensors/ascii.js';
import { DEFAULT_CURVE, LuxFilter, median, percentFor } from '../../src/brightness/sensors/curve.js';
import { crc16, parseAnswer, readRequest } from '../../src/brightness/sensors/modbus-rtu.js';
import { Sensor, STALE_AFTER_MS } from '../../src/brightness/sensors/sensor.js';
import type { SensorConfig } from '../../src/config/types.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/service.js';
import { silentLog } from '../helpers/fake-runtime.js';

// @serialport/binding-mock, reached through serialport (its own package has no types under NodeNext).
const MockBinding = SerialPortMock.binding;
type MockPortBinding = Awaited<ReturnType<typeof MockBinding.open>>;

test('curve: interpolated between its points, held at its ends', () => {
  const curve: Array<[number, number]> = [
    [0, 5],
    [100, 25],
    [1000, 100],
  ];
  assert.equal(percentFor(0, curve), 5);
  assert.equal(percentFor(50, curve), 15);
  assert.equal(percentFor(550, curve), 62.5);
  assert.equal(percentFor(5000, curve), 100);
  assert.equal(percentFor(-3, curve), 5);
  assert.equal(percentFor(30000), DEFAULT_CURVE.at(-1)![1]);
  assert.equal(median([5, 1, 900, 3, 4]), 4);
});

test(
  'smoothing and hysteresis: a spike is ignored, a level ' + 'between two steps does not flicker, the ends are reached',
  () => {
    const f = new LuxFilter([
      [0, 0],
      [1000, 100],
    ]);
    assert.equal(f.add(500), 50, 'the first reading sets the level');
    for (const lux of [505, 9000, 495, 510])
      assert.equal(f.add(lux), 50, `${lux}: a headlight flash or a small change does nothing`);
    // Hovering across a step: 51..52 % never moves a panel showing 50.
    for (const lux of [515, 520, 515, 520, 515, 520]) assert.equal(f.add(lux), 50);
    for (const lux of [700, 700, 700]) f.add(lux);
    assert.equal(f.percent, 70, 'a real change is followed');
    for (let i = 0; i < 5; i++) f.add(1000);
    assert.equal(f.percent, 100);
    for (let i = 0; i < 5; i++) f.add(990);
    assert.equal(f.percent, 100, '99 % is within the hysteresis');
    for (let i = 0; i < 5; i++) f.add(10);
    assert.equal(f.percent, 1);
    for (let i = 0; i < 5; i++) f.add(0);
    assert.equal(f.percent, 0, 'the darkest end is reached although it is within the hysteresis');
  },
);

test('ascii lines and Modbus RTU frames', () => {
  assert.equal(parseLuxLine('1234'), 1234);
  assert.equal(parseLuxLine(' 87.5 lx'), 87.5);
  assert.equal(parseLuxLine('420 LUX'), 420);
  for (const bad of ['', 'abc', '-5', '1,5', '12 cd']) assert.equal(parseLuxLine(bad), undefined, bad);
  // The classic example from the Modbus over serial line guide: read one holding register 0 of unit 1.
  assert.equal(readRequest(1, 0).toString('hex'), '010300000001840a');
  const answer = (unit: number, value: number) => {
    const b = Buffer.from([unit, 3, 2, value >> 8, value & 255, 0, 0]);
    b.writeUInt16LE(crc16(b, 5), 5);
    return b;
  };
  assert.equal(parseAnswer(answer(1, 4321), 1), 4321);
  assert.throws(() => parseAnswer(answer(2, 1), 1), /answer from unit 2/);
  const corrupt = answer(1, 4321);
  corrupt[3] ^= 1;
  assert.throws(() => parseAnswer(corrupt, 1), /bad CRC/);
  const exc = Buffer.from([1, 0x83, 2, 0, 0]);
  exc.writeUInt16LE(crc16(exc, 3), 3);
  assert.throws(() => parseAnswer(exc, 1), /Modbus exception 2 \(illegal data address\)/);
});

/** MockBinding with a handle on the port the sensor opened, and an optional device answering what it is sent. */
function mockDevice(path: string, answer?: (request: Buffer) => Buffer | undefined) {
  const dev = { port: undefined as MockPortBinding | undefined, opens: 0 };
  MockBinding.createPort(path, { echo: false, record: false });
  const binding = {
    open: async (o: { path: string; baudRate: number }) => {
      const port = await MockBinding.open(o);
      dev.opens++;
      dev.port = port;
      if (answer) {
        const write = port.write.bind(port);
        port.write = async (b: Buffer) => {
          await write(b);
          const reply = answer(b);
          if (reply)
            setImmediate(() => {
              if (port.isOpen) port.emitData(reply);
            });
        };
      }
      return port;
    },
  };
  return { dev, link: { binding: async () => binding } };
}

/** Resolves once the poll under way has finished: the sensor then waits on the clock for its next one. */
async function polled(clock: FakeClock): Promise<void> {
  await until(() => clock.pending() > 0, 3000, 'the poll to finish');
}

function sensorUnder(cfg: Partial<SensorConfig>, link: { binding(): Promise<unknown> }, clock: FakeClock) {
  const changes = { n: 0 };
  const sensor = new Sensor(
    'displays/led/sensor',
    { baudRate: 9600, protocol: 'ascii', unitId: 1, register: 0, pollMs: 1000, ...cfg } as SensorConfig,
    {
      clock,
      log: silentLog,
      link: link as never,
      onChange: () => {
        changes.n++;
      },
    },
  );
  return { sensor, changes };
}

test(
  'ascii sensor on the mock binding: readings, unplug with the last value held, reconnect by itself, stale ' +
    'after ten minutes',
  async () => {
    MockBinding.reset();
    const clock = new FakeClock();
    const { dev, link } = mockDevice('/dev/ttyMOCK0');
    const { sensor } = sensorUnder(
      {
        path: '/dev/ttyMOCK0',
        curve: [
          [0, 0],
          [1000, 100],
        ],
      },
      link,
      clock,
    );
    try {
      sensor.start();
      clock.advance(0);
      await until(() => sensor.status(clock.now()).connected, 2000, 'connected');
      // Each line is taken by the next poll: after it the sensor waits for its next poll on the clock.
      for (const lux of [400, 410, 405]) {
        dev.port!.emitData(`${lux}\r\n`);
        await polled(clock);
        clock.advance(1000);
      }
      assert.equal(sensor.value(clock.now()), 40, 'the first reading set 40 %; 41 is within the hysteresis');
      dev.port!.emitData('garbage\n');
      await polled(clock);
      await until(
        () => /not a lux reading: "garbage"/.test(sensor.status(clock.now()).warning ?? ''),
        2000,
        'a malformed line warned',
      );
      assert.equal(sensor.value(clock.now()), 40, 'the last value holds');

      // Unplugged: the device and its path disappear.
      await dev.port!.close();
      MockBinding.reset();
      await until(() => !sensor.status(clock.now()).connected, 2000, 'the loss noticed');
      let st = sensor.status(clock.now());
      assert.match(st.warning!, /disconnected: .*; reconnecting/);
      assert.match(st.warning!, /the last value holds until/);
      assert.equal(sensor.value(clock.now()), 40);
      const opens = dev.opens;
      // Each attempt to open fails and arms the next one.
      for (let i = 0; i < 5; i++) {
        clock.advance(30_000);
        await polled(clock);
      }
      assert.equal(dev.opens, opens, 'no device, no open');
      assert.match(sensor.status(clock.now()).warning!, /cannot open \/dev\/ttyMOCK0: Port does not exist/);

      // Plugged back in: found again on the next attempt (at most 30 s later), readings resume.
      MockBinding.createPort('/dev/ttyMOCK0', { echo: false, record: false });
      clock.advance(30_000);
      await until(() => sensor.status(clock.now()).connected, 2000, 'reconnected');
      assert.equal(sensor.status(clock.now()).reconnects, 1);
      for (let i = 0; i < 3; i++) {
        dev.port!.emitData('900\n');
        clock.advance(1000);
        await polled(clock);
      }
      await until(() => sensor.value(clock.now()) === 90, 2000, 'new readings after the replug');
      st = sensor.status(clock.now());
      assert.equal(st.warning, undefined);

      // Silent for longer than STALE_AFTER_MS: the value no longer counts.
      const readAt = Date.parse(st.lastReadingAt!);
      await dev.port!.close();
      MockBinding.reset();
      clock.advance(readAt + STALE_AFTER_MS - clock.now());
      assert.equal(sensor.value(clock.now()), 90);
      clock.advance(1);
      assert.equal(sensor.value(clock.now()), undefined);
      assert.equal(sensor.status(clock.now()).fresh, false);
    } finally {
      await sensor.stop();
      MockBinding.reset();
    }
  },
);

test(
  'Modbus RTU sensor on the mock binding: a request per ' + 'poll, the register as lux, a silent device reopened',
  async () => {
    MockBinding.reset();
    const clock = new FakeClock();
    let lux = 250;
    let silent = false;
    const requests: string[] = [];
    const { dev, link } = mockDevice('/dev/ttyMOCK1', (req) => {
      requests.push(req.toString('hex'));
      if (silent) return undefined;
      const b = Buffer.from([req[0], 3, 2, lux >> 8, lux & 255, 0, 0]);
      b.writeUInt16LE(crc16(b, 5), 5);
      return b;
    });
    const { sensor } = sensorUnder(
      {
        protocol: 'modbus-rtu',
        path: '/dev/ttyMOCK1',
        unitId: 7,
        register: 3,
        pollMs: 500,
        curve: [
          [0, 10],
          [500, 60],
        ],
      },
      link,
      clock,
    );
    try {
      sensor.start();
      clock.advance(0);
      await until(() => sensor.lux === 250, 2000, 'the first answer');
      await polled(clock);
      assert.equal(requests[0], readRequest(7, 3).toString('hex'));
      assert.equal(sensor.value(clock.now()), 35);
      lux = 500;
      for (let i = 0; i < 5; i++) {
        clock.advance(500);
        await polled(clock);
      }
      assert.equal(requests.length, 6, 'one request per poll');
      assert.equal(sensor.value(clock.now()), 60, 'the median follows');

      // No answers: warned at once, reopened after three failed reads; the last value holds meanwhile.
      silent = true;
      const opens = dev.opens;
      clock.advance(500);
      await polled(clock);
      assert.match(
        sensor.status(clock.now()).warning ?? '',
        /no answer from unit 7 from \/dev\/ttyMOCK1 within 500 ms/,
      );
      clock.advance(500);
      await polled(clock);
      assert.ok(sensor.status(clock.now()).connected, 'two failed reads: still connected');
      clock.advance(500);
      await polled(clock);
      assert.equal(sensor.status(clock.now()).connected, false, 'three: the link is closed to be opened again');
      assert.equal(sensor.value(clock.now()), 60);
      silent = false;
      clock.advance(1000);
      await until(() => sensor.status(clock.now()).connected && dev.opens > opens, 2000, 'reopened');
      await polled(clock);
      assert.equal(sensor.status(clock.now()).warning, undefined, 'answers again');
    } finally {
      await sensor.stop();
      MockBinding.reset();
    }
  },
);
