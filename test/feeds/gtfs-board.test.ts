import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/render/content/board-source.js';
import type { FeedsComponent } from '../../src/feeds/feeds-component.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedMessage, feedServer, feedsRig, gtfsZip, rt, sec } from './fixtures.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Saturday 28 November 2026, 11:00 in Berlin (UTC+1): the service day's times count from 23:00 UTC the day before.
const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
const BASE = Date.UTC(2026, 10, 27, 23, 0, 0);
const at = (hhmm: string) => { const [h, m, s] = hhmm.split(':').map(Number); return BASE + ((h * 60 + m) * 60 + (s ?? 0)) * 1000; };

type Row = Array<string | number>;
/** Trips of route 12 from Origin (S0) through Central (S1, platform P1) to Hauptbahnhof (S2). */
export function schedule(): Record<string, Row[]> {
  const trips: Row[] = [['route_id', 'service_id', 'trip_id', 'trip_headsign']];
  const times: Row[] = [['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']];
  const trip = (id: string, service: string, calls: Array<[string, string]>, headsign = 'Hauptbahnhof') => {
    trips.push(['R12', service, id, headsign]);
    calls.forEach(([stop, t], i) => times.push([id, t, t, stop, i + 1]));
  };
  trip('T1', 'WK', [['S0', '11:03:00'], ['P1', '11:05:00'], ['S2', '11:20:00']]);
  trip('T2', 'WK', [['S0', '11:08:00'], ['S1', '11:10:00']]);
  trip('T3', 'WK', [['S0', '11:12:00'], ['S1', '11:15:00']]);
  trip('T4', 'WK', [['S0', '11:15:00'], ['S1', '11:18:00']]);
  trip('T5', 'WK', [['S0', '11:22:00'], ['S1', '11:25:00'], ['S2', '11:40:00']]);
  trip('T6', 'WK', [['S0', '11:27:00'], ['S1', '11:30:00']]);
  trip('T7', 'WK', [['S0', '11:31:00'], ['S1', '11:35:00']]);
  trip('TX', 'OFF', [['S0', '11:38:00'], ['S1', '11:40:00']]);
  trip('T8', 'WK', [['S1', '11:45:00'], ['S2', '12:00:00']], '');
  trip('TN', 'WK', [['S0', '25:05:00'], ['S1', '25:10:00']], 'Night line');
  trip('TF', 'FAR', [['S9', '11:00:00']]);
  return {
    'agency.txt': [['agency_id', 'agency_name', 'agency_url', 'agency_timezone'], ['A', 'Test Transit', 'https://example.org', 'Europe/Berlin']],
    'stops.txt': [
      ['stop_id', 'stop_name', 'location_type', 'parent_station', 'platform_code'],
      ['S0', 'Origin', 0, '', ''], ['S1', 'Central', 1, '', ''], ['P1', 'Central, platform 3', 0, 'S1', '3'], ['S2', 'Hauptbahnhof "Süd", Ost', 0, '', ''], ['S9', 'Far away', 0, '', ''],
    ],
    'routes.txt': [['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type'], ['R12', 'A', '12', 'Line twelve', 3], ['R99', 'A', '99', '', 3]],
    'trips.txt': trips,
    'stop_times.txt': times,
    'calendar.txt': [
      ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'],
      ['WK', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231'], ['OFF', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231'], ['FAR', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231'],
    ],
    // OFF does not run today.
    'calendar_dates.txt': [['service_id', 'date', 'exception_type'], ['OFF', '20261128', 2]],
  };
}

const update = (tripId: string, stops: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({ id: tripId, tripUpdate: { trip: { tripId, ...extra }, stopTimeUpdate: stops } });
const SR = rt.TripUpdate.StopTimeUpdate.ScheduleRelationship;

export function tripUpdates(now: number): Buffer {
  return feedMessage([
    update('T1', [{ stopSequence: 2, departure: { delay: 120 } }]),
    update('T2', [{ stopId: 'S1', departure: { time: sec(at('11:13:30')) } }]),
    update('T3', [{ stopSequence: 1, departure: { delay: 300 } }]),
    update('T4', [], { scheduleRelationship: rt.TripDescriptor.ScheduleRelationship.CANCELED }),
    update('T5', [{ stopSequence: 1, departure: { delay: 60 } }, { stopSequence: 2, scheduleRelationship: SR.SKIPPED }]),
    update('T6', [{ stopSequence: 1, scheduleRelationship: SR.NO_DATA }]),
    update('T7', [{ stopSequence: 1, arrival: { time: sec(at('11:34:00')) } }]),
    update('TF', [{ stopId: 'S9', departure: { delay: 60 } }]),
  ], now);
}

const query = (now: number, extra: Partial<BoardQuery> = {}): BoardQuery => ({ feed: 'vbb', stops: ['S1'], staleAfter: 180, now, limit: 9, ...extra });
const rows = (feeds: FeedsComponent, q: BoardQuery) => {
  const b = feeds.board(q);
  return { state: b.state, rows: b.departures.map((d) => `${d.route}|${d.destination}|${d.platform}|${new Date(d.time).toISOString().slice(11, 19)}|${d.live ? 'live' : 'sched'}${d.cancelled ? '|cancelled' : ''}`) };
};

test('GTFS-realtime on the schedule: delays, absolute times, propagation, CANCELED, SKIPPED, NO_DATA, a service not running today', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
  const srv = await feedServer();
  const clock = new FakeClock(T0);
  srv.bodies.set('/tu', tripUpdates(T0));
  const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
  const rig = await feedsRig(boardConfig({ vbb: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'gtfs.zip', interval: '30' } }, ['S1']), clock, { 'gtfs.zip': zip });
  try {
    let changes = 0;
    rig.feeds.onChange(() => changes++);
    await until(() => rig.feeds.board(query(T0)).state === 'live', 10_000, 'live data');
    assert.ok(changes >= 2, 'the schedule and the first poll each tell the boards');
    assert.deepEqual(rows(rig.feeds, query(T0)), {
      state: 'live',
      rows: [
        '12|Hauptbahnhof|3|10:07:00|live', // T1: its own delay, at its platform
        '12|Hauptbahnhof||10:13:30|live', // T2: an absolute time in seconds
        '12|Hauptbahnhof||10:18:00|live|cancelled', // T4: trip CANCELED (stays, marked, until its time)
        '12|Hauptbahnhof||10:20:00|live', // T3: 300 s propagated from Origin
        '12|Hauptbahnhof||10:25:00|live|cancelled', // T5: SKIPPED here
        '12|Hauptbahnhof||10:30:00|sched', // T6: NO_DATA before it: the schedule stands
        '12|Hauptbahnhof||10:38:00|live', // T7: 3 min late at Origin (a time only) -> 3 min here
        '12|Hauptbahnhof "Süd", Ost||10:45:00|sched', // T8: not in the feed; no headsign: its last stop's name
        '12|Night line||00:10:00|sched', // TN at 25:10 today is 01:10 tomorrow; TX does not run today
      ],
    });
    // A route filter and a limit.
    assert.equal(rig.feeds.board(query(T0, { routes: ['99'] })).state, 'live');
    assert.equal(rig.feeds.board(query(T0, { routes: ['99'] })).departures.length, 0);
    assert.equal(rig.feeds.board(query(T0, { limit: 2 })).departures.length, 2);
    // Departures in the past leave.
    assert.equal(rows(rig.feeds, query(at('11:14:00'), { staleAfter: 3600 })).rows[0], '12|Hauptbahnhof||10:18:00|live|cancelled');
    // An unknown feed has no data.
    assert.deepEqual(rig.feeds.board(query(T0, { feed: 'nope' })), { state: 'no-data', departures: [] });
    const st = rig.feeds.status().feeds.vbb as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(st.state, 'ok');
    assert.equal(st.zone, 'Europe/Berlin', "agency.txt's zone");
    assert.equal(st.schedule.state, 'ok');
    assert.equal(st.schedule.trips, 10, 'only the trips calling at the boards\' stops are kept');
  } finally {
    await rig.stop();
    srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
