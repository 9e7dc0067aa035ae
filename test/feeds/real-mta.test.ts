// Departure boards on a real agency's schedule: MTA New York City Transit's subway of September
// 2026 (565,000 stop times; stations with their N and S platforms, trips past 24:00, a holiday
// run as a Sunday). Each board is checked against the test's own reading of the timetable:
// trips whose service runs that day (calendar and its exceptions, and the day before for times
// past 24:00), calls at the station's platforms that are not the trip's last stop, from now on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BoardData } from '../../src/config/board-source.js';
import { gtfsBoard } from '../../src/feeds/board.js';
import type { Schedule } from '../../src/feeds/schedule.js';
import { ScheduleReader } from '../../src/feeds/schedule-reader.js';
import { skipReason } from '../helpers/skip.js';
import { mtaMissing, mtaTables, mtaZip, type Row, type Tables } from './real-mta.js';

const ZONE = 'America/New_York';
const LIMIT = 8;
const missing = skipReason(mtaMissing());
const reader = new ScheduleReader();
let tables: Tables;
let zip: string;

before(async () => {
  if (missing) return;
  tables = await mtaTables();
  zip = await mtaZip(tables);
});
after(() => reader.close());

/** An instant in New York in September (EDT, UTC-4). */
const nyc = (y: number, m: number, d: number, hh: number, mm: number) => Date.UTC(y, m - 1, d, hh + 4, mm);
const hhmm = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' }).format(ms);
const seconds = (t: string) => {
  const [h, m, s] = t.split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

/** Does `service` run on the day `y-m-d` (calendar.txt, then calendar_dates.txt)? */
function runs(service: string, y: number, m: number, d: number): boolean {
  const ymd = `${y}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
  const exception = tables.calendar_dates.find((r) => r.service_id === service && r.date === ymd);
  if (exception) return exception.exception_type === '1';
  const day = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][
    new Date(Date.UTC(y, m - 1, d)).getUTCDay()
  ];
  return tables.calendar.some(
    (r) => r.service_id === service && r[day] === '1' && r.start_date <= ymd && ymd <= r.end_date,
  );
}

interface Expected {
  row: string;
  time: number;
  /** As the timetable writes it (past 24:00 for a service day's night). */
  written: string;
  trip: string;
}

/** The departures at `station`'s platforms from `now` (a day in September), read from the tables alone. */
function timetable(station: string, now: number): Expected[] {
  const platforms = new Set(
    tables.stops.filter((s) => s.stop_id === station || s.parent_station === station).map((s) => s.stop_id),
  );
  const trips = new Map(tables.trips.map((t) => [t.trip_id, t]));
  const routes = new Map(tables.routes.map((r) => [r.route_id, r]));
  const lastSequence = new Map<string, number>();
  for (const st of tables.stop_times) {
    const n = Number(st.stop_sequence);
    if (n > (lastSequence.get(st.trip_id) ?? -1)) lastSequence.set(st.trip_id, n);
  }
  const local = new Date(now - 4 * 3600_000);
  const days = [0, -1].map((back) => {
    const d = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + back));
    return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
  });
  const out: Expected[] = [];
  for (const st of tables.stop_times) {
    if (!platforms.has(st.stop_id) || Number(st.stop_sequence) === lastSequence.get(st.trip_id)) continue;
    const trip: Row = trips.get(st.trip_id)!;
    for (const { y, m, d } of days) {
      if (!runs(trip.service_id, y, m, d)) continue;
      const time = nyc(y, m, d, 0, 0) + seconds(st.departure_time) * 1000;
      if (time < now) continue;
      const route = routes.get(trip.route_id)!;
      const row = `${route.route_short_name || route.route_id} ${trip.trip_headsign} ${hhmm(time)}`;
      out.push({ row, time, written: st.departure_time, trip: st.trip_id });
    }
  }
  return out.sort((a, b) => a.time - b.time);
}

let schedule: Schedule | undefined;
/** The schedule as the service reads it (in its thread) for every station these tests look at. */
async function read(): Promise<Schedule> {
  schedule ??= await reader.read(zip, ['127', '142', '901'], 2 ** 32);
  return schedule;
}

const board = (s: Schedule, station: string, now: number): BoardData =>
  gtfsBoard(
    { feed: 'mta', stops: [station], staleAfter: 180, now, limit: LIMIT },
    { schedule: s, zone: ZONE, fresh: false },
  );

/**
 * The board's rows against the timetable's first ones; trains leaving in the same minute may come in
 * either order, and those in the minute the limit cuts through are left out of both.
 */
function sameDepartures(b: BoardData, want: Expected[]): void {
  const got = b.departures.map((d) => `${d.route} ${d.destination} ${hhmm(d.time)}`);
  assert.equal(got.length, LIMIT, `a full board: ${got.join(' | ')}`);
  const cut = want[LIMIT - 1].time;
  const sure = (rows: string[], times: number[]) => rows.filter((_, i) => times[i] < cut).sort();
  assert.deepEqual(
    sure(
      got,
      b.departures.map((d) => d.time),
    ),
    sure(
      want.slice(0, LIMIT).map((w) => w.row),
      want.slice(0, LIMIT).map((w) => w.time),
    ),
  );
  assert.ok(
    sure(
      got,
      b.departures.map((d) => d.time),
    ).length >=
      LIMIT / 2,
    'most rows compared',
  );
}

test('Times Sq-42 St on a weekday morning: both platforms, as the timetable has them', { skip: missing }, async () => {
  const now = nyc(2026, 9, 23, 8, 0);
  const want = timetable('127', now);
  sameDepartures(board(await read(), '127', now), want);
  // The station's two platforms both appear: uptown and downtown trains.
  const heads = new Set(want.slice(0, LIMIT).map((w) => w.row.split(' ').slice(1, -1).join(' ')));
  assert.ok(heads.has('South Ferry') && heads.has('Van Cortlandt Park-242 St'), [...heads].join(', '));
});

test('Labor Day (a weekday) runs the Sunday service, as calendar_dates says', { skip: missing }, async () => {
  const now = nyc(2026, 9, 7, 10, 0);
  const want = timetable('127', now);
  assert.ok(
    want.slice(0, LIMIT).every((w) => /Sunday/.test(w.trip)),
    'the test reads the exception: Sunday trips only',
  );
  sameDepartures(board(await read(), '127', now), want);
});

test(
  "after midnight on a Sunday, Saturday's trips written past 24:00 are the departures",
  { skip: missing },
  async () => {
    const now = nyc(2026, 9, 6, 0, 30);
    const want = timetable('127', now);
    assert.ok(
      want.slice(0, LIMIT).some((w) => w.written >= '24:'),
      'the night includes trips of the day before',
    );
    sameDepartures(board(await read(), '127', now), want);
  },
);

test('at a terminal, trains that end there are not departures', { skip: missing }, async () => {
  for (const [station, terminus] of [
    ['142', 'South Ferry'],
    ['901', 'Grand Central-42 St'],
  ]) {
    const now = nyc(2026, 9, 23, 17, 30);
    const want = timetable(station, now);
    const b = board(await read(), station, now);
    sameDepartures(b, want);
    assert.ok(
      b.departures.every((d) => d.destination !== terminus),
      `${station}: ${b.departures.map((d) => d.destination).join(', ')}`,
    );
  }
});
