// brightness-schedule.json: its faults (each at its JSON pointer), the period in force, ramps
// centred on sunrise and sunset, and the running service following the file with an injected
// clock: through a ramp, a faulty file (reported, the previous schedule stays), an edit and a
// reload.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseSchedule } from '../../src/brightness/schedule-file.js';
import { evaluate, type Schedule } from '../../src/brightness/schedule.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const period = (from: string, sunrise: string, sunset: string, day: number, night: number) => ({
  from,
  sunrise,
  sunset,
  day,
  night,
});

function ok(text: unknown): Schedule {
  const r = parseSchedule(JSON.stringify(text));
  assert.equal(r.state, 'ok', JSON.stringify(r));
  return (r as { schedule: Schedule }).schedule;
}

function faults(text: string): string[] {
  const r = parseSchedule(text);
  assert.equal(r.state, 'faulty');
  return (r as { faults: Array<{ path: string; message: string }> }).faults.map((f) => `${f.path}: ${f.message}`);
}

test('schedule file: every fault at its JSON pointer, all at once', () => {
  assert.match(faults('{"periods": [')[0], /^: is not valid JSON/);
  assert.match(faults('[]')[0], /must be an object/);
  assert.deepEqual(faults('{}'), [
    '/periods: is required: a list of periods, usually 24 (the 1st and 16th of each month)',
  ]);
  const f = faults(
    JSON.stringify({
      rampMinutes: 500,
      colour: 'red',
      periods: [
        period('13-01', '06:00', '18:00', 100, 50),
        { ...period('01-16', '25:00', '18:00', 101, -1), extra: 1 },
        period('02-01', '18:00', '06:00', 100, 50),
        period('02-30', '06:00', '18:00', 100, 50),
        period('03-01', '06:00', '18:00', 100, 50),
        period('03-01', '06:00', '18:00', 100, 50.5),
        'x',
      ],
    }),
  );
  assert.deepEqual(f, [
    '/colour: is not a known field',
    '/rampMinutes: must be an integer number of minutes 0..240',
    '/periods/0/from: must be a date "MM-DD" (the first day of the period)',
    '/periods/1/extra: is not a known field',
    '/periods/1/sunrise: must be a local time "HH:MM"',
    '/periods/1/day: must be an integer percent 0..100',
    '/periods/1/night: must be an integer percent 0..100',
    '/periods/2/sunset: must be later than sunrise 18:00',
    '/periods/3/from: must be a date "MM-DD" (the first day of the period)',
    '/periods/5/from: "03-01" is also the start of period 4',
    '/periods/5/night: must be an integer percent 0..100',
    '/periods/6: must be an object {from, sunrise, sunset, day, night}',
  ]);
});

test('schedule file: periods in date order, the last one of the year in force before the first', () => {
  const s = ok({
    rampMinutes: 0,
    periods: [
      period('07-01', '05:00', '21:00', 90, 30),
      period('01-01', '08:00', '16:00', 80, 40),
      period('02-29', '07:00', '17:00', 70, 20),
    ],
  });
  const at = (iso: string) => evaluate(s, 'UTC', Date.parse(iso));
  assert.deepEqual([at('2025-01-01T12:00:00Z').from, at('2025-01-01T12:00:00Z').percent], ['01-01', 80]);
  assert.deepEqual(
    [at('2025-03-01T12:00:00Z').from, at('2025-03-01T12:00:00Z').percent],
    ['02-29', 70],
    'in a common year 02-29 is in force from 03-01',
  );
  assert.deepEqual([at('2024-02-29T12:00:00Z').from, at('2024-02-29T17:30:00Z').percent], ['02-29', 20]);
  assert.deepEqual([at('2025-12-31T23:00:00Z').from, at('2025-12-31T23:00:00Z').percent], ['07-01', 30]);
  // No ramp: the level steps at sunrise and sunset.
  assert.equal(at('2025-01-10T07:59:00Z').percent, 40);
  assert.equal(at('2025-01-10T08:00:00Z').percent, 80);
  assert.equal(at('2025-01-10T07:59:00Z').nextCheckAt, Date.parse('2025-01-10T08:00:00Z'));
});

test('schedule: ramps are centred on sunrise and sunset, and the next check is the next step', () => {
  const s = ok({ rampMinutes: 60, periods: [period('01-01', '06:00', '18:00', 90, 20)] });
  const at = (hm: string) => evaluate(s, 'UTC', Date.parse(`2025-05-05T${hm}:00Z`));
  assert.deepEqual([at('05:29').percent, at('05:29').phase], [20, 'night']);
  assert.equal(at('05:29').nextCheckAt, Date.parse('2025-05-05T05:30:00Z'), 'asleep until the ramp starts');
  assert.deepEqual([at('06:00').percent, at('06:00').phase], [55, 'sunrise ramp']);
  assert.equal(at('06:30').percent, 90);
  assert.equal(at('12:00').nextCheckAt, Date.parse('2025-05-05T17:30:00Z'));
  assert.deepEqual([at('17:45').percent, at('17:45').phase], [73, 'sunset ramp']);
  assert.equal(at('18:30').percent, 20);
  assert.equal(
    at('19:00').nextCheckAt,
    Date.parse('2025-05-06T00:00:00Z'),
    'after sunset: midnight (a new period may start)',
  );
  // 70 steps over 60 minutes: each step is about 51 s after the one before.
  let t = Date.parse('2025-05-05T17:30:00Z');
  const seen = [evaluate(s, 'UTC', t).percent];
  for (let i = 0; i < 200 && t < Date.parse('2025-05-05T18:30:00Z'); i++) {
    t = evaluate(s, 'UTC', t).nextCheckAt;
    seen.push(evaluate(s, 'UTC', t).percent);
  }
  const distinct = [...new Set(seen)];
  assert.equal(distinct.length, 71, 'every level from 90 down to 20 once');
  assert.ok(seen.length <= 75, `woke ${seen.length} times for 70 steps`);
  assert.deepEqual(
    distinct,
    [...distinct].sort((a, b) => b - a),
  );
});

test('schedule: local clock times across a daylight saving change', () => {
  const s = ok({ rampMinutes: 0, periods: [period('03-16', '05:30', '18:00', 100, 40)] });
  // Europe/Warsaw goes from +01:00 to +02:00 on 2025-03-30: 05:30 local is 04:30 UTC before and 03:30 UTC after.
  assert.equal(evaluate(s, 'Europe/Warsaw', Date.parse('2025-03-29T04:29:00Z')).percent, 40);
  assert.equal(evaluate(s, 'Europe/Warsaw', Date.parse('2025-03-29T04:30:00Z')).percent, 100);
  assert.equal(evaluate(s, 'Europe/Warsaw', Date.parse('2025-03-31T03:29:00Z')).percent, 40);
  assert.equal(evaluate(s, 'Europe/Warsaw', Date.parse('2025-03-31T03:30:00Z')).percent, 100);
});

async function outputBrightness(svc: { url: string }): Promise<number> {
  const st = (await get(svc, '/status')).json as Obj;
  return st.displays[0].output.details.brightness;
}

test(
  'service: the schedule file drives the output through a ramp on the injected clock; faults keep the ' +
    'previous schedule',
  async () => {
    const c = baseConfig();
    c.timezone = 'UTC';
    const sd = serviceDir(c);
    const file = path.join(sd.dir, 'brightness-schedule.json');
    writeFileSync(file, JSON.stringify({ rampMinutes: 60, periods: [period('01-01', '06:00', '18:00', 90, 20)] }));
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const svc = await start(sd, { clock, recheckSeconds: 0 });
    try {
      const brightness = async () => ((await get(svc, '/status')).json as Obj).components.brightness as Obj;
      await until(async () => (await outputBrightness(svc)) === 90, 3000, 'day level');
      let b = await brightness();
      assert.equal(b.units[0].mode, 'schedule');
      assert.match(
        b.units[0].source,
        /brightness-schedule.json: day \(period from 01-01, sunrise 06:00, sunset 18:00\)/,
      );
      assert.equal(b.schedule.file.status, 'ok');
      assert.equal(clock.pending(), 1, 'one timer: the start of the evening ramp');

      clock.advance(5.75 * 3600_000); // 17:45, a quarter into the ramp
      await until(async () => (await outputBrightness(svc)) === 73, 3000, 'a quarter down the ramp');
      clock.advance(45 * 60_000); // 18:30, the ramp is over
      await until(async () => (await outputBrightness(svc)) === 20, 3000, 'night level');
      assert.equal(clock.pending(), 1, 'one timer again: midnight');

      // A faulty edit: reported like a configuration fault, the schedule running before stays.
      writeFileSync(file, JSON.stringify({ rampMinutes: 60, periods: [period('01-01', '06:00', '05:00', 90, 20)] }));
      await until(async () => (await brightness()).schedule.file.status === 'faulty', 3000, 'the faulty file noticed');
      b = await brightness();
      assert.deepEqual(b.schedule.file.faults, [
        { path: '/periods/0/sunset', message: 'must be later than sunrise 06:00' },
      ]);
      assert.match(b.schedule.file.message, /1 fault\(s\); the schedule loaded before keeps running/);
      assert.ok(b.warnings.some((w: string) => /brightness-schedule.json has 1 fault/.test(w)));
      assert.equal(b.units[0].mode, 'schedule');
      assert.equal(await outputBrightness(svc), 20);
      const info = (await get(svc, '/info')).text;
      assert.match(info, /data-component="brightness"/);
      assert.match(info, /<code>\/periods\/0\/sunset<\/code>: must be later than sunrise 06:00/);

      // A good edit is taken at once; a configuration reload reads the file again too.
      writeFileSync(file, JSON.stringify({ rampMinutes: 0, periods: [period('01-01', '06:00', '23:00', 90, 35)] }));
      await until(async () => (await outputBrightness(svc)) === 90, 3000, 'the edited schedule');
      writeFileSync(file, JSON.stringify({ rampMinutes: 0, periods: [period('01-01', '06:00', '23:00', 66, 35)] }));
      c.displays.main.displayName = 'renamed';
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      await until(async () => (await outputBrightness(svc)) === 66, 3000, 'the schedule read at reload');
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
