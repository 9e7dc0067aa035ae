// The sample feed of the GTFS tests: route 12's trips through Central (S1) on Saturday 28
// November 2026 in Berlin, and the TripUpdates that exercise each rule of the reference.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeClock } from '../helpers/clock.js';
import { CALENDAR_HEADER, feedMessage, feedServer, gtfsZip, rt, sec, type FeedServer } from './fixtures.js';

// Saturday 28 November 2026, 11:00 in Berlin (UTC+1): the service day's times count from 23:00 UTC the day before.
export const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
export const BASE = Date.UTC(2026, 10, 27, 23, 0, 0);
export const at = (hhmm: string) => {
  const [h, m, s] = hhmm.split(':').map(Number);
  return BASE + ((h * 60 + m) * 60 + (s ?? 0)) * 1000;
};

type Row = Array<string | number>;
/** Trips of route 12 from Origin (S0) through Central (S1, platform P1) to Hauptbahnhof (S2) */
export function schedule(): Record<string, Row[]> {
  const trips: Row[] = [['route_id', 'service_id', 'trip_id', 'trip_headsign']];
  const times: Row[] = [['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']];
  const trip = (id: string, service: string, calls: Array<[string, string]>, headsign = 'Hauptbahnhof') => {
    trips.push(['R12', service, id, headsign]);
    calls.forEach(([stop, t], i) => times.push([id, t, t, stop, i + 1]));
  };
  trip('T1', 'WK', [
    ['S0', '11:03:00'],
    ['P1', '11:05:00'],
    ['S2', '11:20:00'],
  ]);
  trip('T2', 'WK', [
    ['S0', '11:08:00'],
    ['S1', '11:10:00'],
    ['S2', '11:25:00'],
  ]);
  trip('T3', 'WK', [
    ['S0', '11:12:00'],
    ['S1', '11:15:00'],
    ['S2', '11:30:00'],
  ]);
  trip('T4', 'WK', [
    ['S0', '11:15:00'],
    ['S1', '11:18:00'],
    ['S2', '11:33:00'],
  ]);
  trip('T5', 'WK', [
    ['S0', '11:22:00'],
    ['S1', '11:25:00'],
    ['S2', '11:40:00'],
  ]);
  trip('T6', 'WK', [
    ['S0', '11:27:00'],
    ['S1', '11:30:00'],
    ['S2', '11:45:00'],
  ]);
  trip('T7', 'WK', [
    ['S0', '11:31:00'],
    ['S1', '11:35:00'],
    ['S2', '11:50:00'],
  ]);
  trip('TX', 'OFF', [
    ['S0', '11:38:00'],
    ['S1', '11:40:00'],
    ['S2', '11:55:00'],
  ]);
  trip(
    'T8',
    'WK',
    [
      ['S1', '11:45:00'],
      ['S2', '12:00:00'],
    ],
    '',
  );
  trip(
    'TN',
    'WK',
    [
      ['S0', '25:05:00'],
      ['S1', '25:10:00'],
      ['S2', '25:25:00'],
    ],
    'Night line',
  );
  trip('TF', 'FAR', [['S9', '11:00:00']]);
  return {
    'agency.txt': [
      ['agency_id', 'agency_name', 'agency_url', 'agency_timezone'],
      ['A', 'Test Transit', 'https://example.org', 'Europe/Berlin'],
    ],
    'stops.txt': [
      ['stop_id', 'stop_name', 'location_type', 'parent_station', 'platform_code'],
      ['S0', 'Origin', 0, '', ''],
      ['S1', 'Central', 1, '', ''],
      ['P1', 'Central, platform 3', 0, 'S1', '3'],
      ['S2', 'Hauptbahnhof "Süd", Ost', 0, '', ''],
      ['S9', 'Far away', 0, '', ''],
    ],
    'routes.txt': [
      ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type'],
      ['R12', 'A', '12', 'Line twelve', 3],
      ['R99', 'A', '99', '', 3],
    ],
    'trips.txt': trips,
    'stop_times.txt': times,
    'calendar.txt': [
      CALENDAR_HEADER,
      ['WK', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231'],
      ['OFF', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231'],
      ['FAR', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231'],
    ],
    // OFF does not run today.
    'calendar_dates.txt': [
      ['service_id', 'date', 'exception_type'],
      ['OFF', '20261128', 2],
    ],
  };
}

const update = (tripId: string, stops: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({
  id: tripId,
  tripUpdate: { trip: { tripId, ...extra }, stopTimeUpdate: stops },
});
const SR = rt.TripUpdate.StopTimeUpdate.ScheduleRelationship;

export function tripUpdates(now: number): Buffer {
  return feedMessage(
    [
      update('T1', [{ stopSequence: 2, departure: { delay: 120 } }]),
      update('T2', [{ stopId: 'S1', departure: { time: sec(at('11:13:30')) } }]),
      update('T3', [{ stopSequence: 1, departure: { delay: 300 } }]),
      update('T4', [], { scheduleRelationship: rt.TripDescriptor.ScheduleRelationship.CANCELED }),
      update('T5', [
        { stopSequence: 1, departure: { delay: 60 } },
        { stopSequence: 2, scheduleRelationship: SR.SKIPPED },
      ]),
      update('T6', [{ stopSequence: 1, scheduleRelationship: SR.NO_DATA }]),
      update('T7', [{ stopSequence: 1, arrival: { time: sec(at('11:34:00')) } }]),
      update('TF', [{ stopId: 'S9', departure: { delay: 60 } }]),
    ],
    now,
  );
}

/** The schedule as a GTFS zip's bytes. */
export async function scheduleZip(): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
  try {
    return readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A feed server answering /tu with the TripUpdates as of T0, and a clock at T0. */
export async function sampleFeed(): Promise<{ srv: FeedServer; clock: FakeClock }> {
  const srv = await feedServer();
  srv.bodies.set('/tu', tripUpdates(T0));
  return { srv, clock: new FakeClock(T0) };
}
