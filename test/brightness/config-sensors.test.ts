// Light sensors in config.json: the rules between fields the schema cannot express, each fault
// at its JSON pointer, and the shared sensors normalized for the brightness component.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import { baseConfig, serviceDir } from '../helpers/service.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function faultsOf(c: Obj): string[] {
  const sd = serviceDir(c);
  try {
    loadConfig(sd.configFile);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.faults.map((f) => `${f.path}: ${f.message}`);
  } finally {
    sd.cleanup();
  }
}

function twoUnits(): Obj {
  const c = baseConfig();
  const base = c.displays.main;
  c.displays = {
    led: { ...base, displayPort: '9001' },
    ledb: { ...base, displayPort: '9001' },
    lcd: { ...base, displayPort: '9002' },
  };
  return c;
}

test('sensors: a good configuration normalizes, with defaults', () => {
  const c = twoUnits();
  c.displays.led.sensor = { protocol: 'modbus-rtu', path: '/dev/ttyUSB0', unitId: '3', register: 7 };
  c.sensors = [
    {
      protocol: 'modbus-tcp',
      host: '10.0.0.5',
      displays: ['ledb', 'lcd'],
      curve: [
        [0, '5'],
        [100, 50],
      ],
    },
  ];
  const sd = serviceDir(c);
  try {
    const cfg = loadConfig(sd.configFile);
    assert.deepEqual(cfg.displayById.get('led')!.sensor, {
      path: '/dev/ttyUSB0',
      baudRate: 9600,
      protocol: 'modbus-rtu',
      unitId: 3,
      register: 7,
      pollMs: 1000,
      host: undefined,
      port: undefined,
      curve: undefined,
    });
    assert.equal(cfg.sensors.length, 1);
    assert.deepEqual(cfg.sensors[0].displays, ['ledb', 'lcd']);
    assert.deepEqual(cfg.sensors[0].curve, [
      [0, 5],
      [100, 50],
    ]);
    assert.equal(cfg.sensors[0].unitId, 1);
  } finally {
    sd.cleanup();
  }
});

test('sensors: faults at their JSON pointers, all at once', () => {
  const c = twoUnits();
  c.displays.ledb.sensor = { protocol: 'ascii', path: '/dev/ttyUSB1' };
  c.displays.lcd.sensor = {
    protocol: 'modbus-rtu',
    curve: [
      [0, 10],
      [0, 20],
      [50, 150],
    ],
  };
  c.sensors = [
    { protocol: 'modbus-tcp', displays: ['lcd', 'nope'] },
    { protocol: 'ascii', path: '/dev/ttyUSB1', displays: ['led'] },
  ];
  assert.deepEqual(faultsOf(c), [
    '/displays/ledb/sensor: a sensor sets the brightness of the whole unit: put it on the unit\'s MAIN display "led"',
    '/displays/lcd/sensor/path: is required for protocol modbus-rtu',
    '/displays/lcd/sensor/curve/1/0: lux values must increase from point to point (0 follows 0)',
    '/displays/lcd/sensor/curve/2/1: is a brightness percent: at most 100, not 150',
    '/sensors/0/displays/1: names no display: "nope"',
    '/sensors/0/host: is required for protocol modbus-tcp',
    '/sensors/1/path: /dev/ttyUSB1 is already read by the sensor at /displays/ledb/sensor; list every display it ' +
      'serves in one shared sensor instead',
  ]);
});
