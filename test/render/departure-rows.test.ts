// A board's row texts at the edges of a minute, and the moment they next change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeparturesConfig } from '../../src/config/types.js';
import type { Departure } from '../../src/config/board-source.js';
import { boardRows } from '../../src/render/content/departure-rows.js';

const T0 = Date.UTC(2026, 10, 21, 23, 58, 0);
const B: DeparturesConfig = {
  feed: 'f',
  stops: ['s'],
  fields: ['route', 'destination', 'time', 'countdown'],
  nowText: 'now',
  minutesText: '{m} min',
  scheduledMark: '~',
  cancelledText: 'cancelled',
  platformChangedMark: '!',
  accessibleText: 'A',
  occupancyTexts: { FULL: 'full' },
  noDataText: '-',
  noDeparturesText: '-',
  staleAfter: 180,
  announceText: '',
  alertPriority: 5,
};
const dep = (key: string, at: number, p: Partial<Departure> = {}): Departure => ({
  key,
  route: '12',
  destination: 'Zoo',
  platform: '',
  time: T0 + at,
  live: true,
  cancelled: false,
  ...p,
});
const rows = (deps: Departure[], now = T0, zone = 'UTC') =>
  boardRows(B, { state: 'live', departures: deps }, now, zone, 10);

test('the countdown is whole minutes, floored: now under one minute, 1 min from exactly 60 s', () => {
  const r = rows([dep('a', 59_999), dep('b', 60_000), dep('c', 119_999), dep('d', 120_000)]);
  assert.deepEqual(
    r.rows.map((c) => c[3]),
    ['now', '1 min', '1 min', '2 min'],
  );
});

test(
  'the board changes 1 ms after the first countdown would read differently, and a departure leaves 1 ms after ' +
    'its time',
  () => {
    // 90.5 s away: "1 min" until 30.5 s from now, then "now".
    const a = rows([dep('a', 90_500)]);
    assert.equal(a.until, T0 + 30_501);
    assert.deepEqual(rows([dep('a', 90_500)], T0 + 30_501).rows[0][3], 'now');
    const gone = rows([dep('a', 5_000)]);
    assert.equal(gone.until, T0 + 5_001);
    assert.deepEqual(rows([dep('a', 5_000)], T0 + 5_001).rows, []);
    // A cancelled departure reads the same until it leaves.
    assert.equal(rows([dep('c', 300_000, { cancelled: true })]).until, T0 + 300_001);
  },
);

test(
  'times are HH:mm in the zone across midnight, marked when not live; a cancelled row keeps its time, the ' +
    'countdown says cancelled',
  () => {
    const r = rows([dep('a', 150_000, { live: false }), dep('b', 200_000, { cancelled: true })], T0, 'Europe/Warsaw');
    // 23:58 UTC + 2.5 min is 00:00:30 UTC, 01:00 in Warsaw.
    assert.deepEqual(r.rows, [
      ['12', 'Zoo', '01:00~', '2 min~'],
      ['12', 'Zoo', '01:01', 'cancelled'],
    ]);
  },
);

test(
  'a cancelled row on a board with one time column reads its time or countdown beside cancelledText, and its ' +
    'countdown ticks',
  () => {
    const only = (fields: DeparturesConfig['fields'], now = T0) =>
      boardRows(
        { ...B, fields },
        { state: 'live', departures: [dep('c', 390_000, { cancelled: true, live: false })] },
        now,
        'UTC',
        10,
      );
    assert.deepEqual(only(['route', 'time']).rows, [['12', '00:04 cancelled']]);
    assert.deepEqual(only(['route', 'countdown']).rows, [['12', '6 min cancelled']]);
    assert.deepEqual(only(['route', 'destination']).rows, [['12', 'Zoo cancelled']]);
    // "6 min cancelled" becomes "5 min cancelled" 1 ms after 330 s before the departure.
    assert.equal(only(['route', 'countdown']).until, T0 + 30_001);
    assert.equal(only(['route', 'time']).until, T0 + 390_001);
  },
);

test("a feed's tabs and line feeds cannot break the table, and its text is cut to 255 characters", () => {
  const r = rows([dep('a', 600_000, { destination: `Hbf\tGleis 1\n${'x'.repeat(400)}`, route: 'S\r1' })]);
  assert.equal(r.rows[0][0], 'S 1');
  assert.ok(!/[\t\n\r]/.test(r.rows[0][1]) && r.rows[0][1].length === 255 && r.rows[0][1].startsWith('Hbf Gleis 1 x'));
});

test(
  "grouped by platform, rows go in the platforms' natural order (a departure without one last), then by time; " +
    'a changed platform carries platformChangedMark',
  () => {
    const deps = [
      dep('a', 60_000, { platform: '10' }),
      dep('b', 120_000, { platform: '2', platformChanged: true }),
      dep('c', 180_000),
      dep('d', 240_000, { platform: '2' }),
    ];
    const r = boardRows(
      { ...B, fields: ['platform', 'countdown'], groupBy: 'platform' },
      { state: 'live', departures: deps },
      T0,
      'UTC',
      10,
    );
    assert.deepEqual(r.rows, [
      ['2!', '2 min'],
      ['2', '4 min'],
      ['10', '1 min'],
      ['', '3 min'],
    ]);
  },
);

test(
  'accessible and occupancy cells: accessibleText for a vehicle that takes a wheelchair, occupancyTexts by ' +
    'status, nothing when not known',
  () => {
    const deps = [
      dep('a', 60_000, { accessible: true, occupancy: 'FULL' }),
      dep('b', 120_000, { accessible: false, occupancy: 'EMPTY' }),
      dep('c', 180_000),
    ];
    const r = boardRows(
      { ...B, fields: ['route', 'accessible', 'occupancy'] },
      { state: 'live', departures: deps },
      T0,
      'UTC',
      10,
    );
    assert.deepEqual(r.rows, [
      ['12', 'A', 'full'],
      ['12', '', ''],
      ['12', '', ''],
    ]);
  },
);
