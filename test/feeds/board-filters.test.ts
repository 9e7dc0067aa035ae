// What a board's query keeps beyond its routes, on a schedule read as the service reads it and a
// GTFS-realtime feed served over HTTP: GTFS direction_ids, headsigns, departures a walk away, and
// a platform change (assigned_stop_id) shown as such with the new platform; wheelchair_accessible
// and occupancy (a VehiclePosition's occupancy_status, a stop's departure_occupancy_status).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/config/board-source.js';
import type { FeedsComponent } from '../../src/feeds/feeds-component.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { CALENDAR_HEADER, boardConfig, feedMessage, feedServer, feedsRig, gtfsZip, rt, sec } from './fixtures.js';
import { at, T0 } from './gtfs-sample.js';

type Row = Array<string | number>;
/** Central (S1), a station with platforms 1 (P1) and 2 (P2); line 1 northbound (direction 0) and southbound (1). */
function schedule(): Record<string, Row[]> {
  const trips: Row[] = [
    ['route_id', 'service_id', 'trip_id', 'trip_headsign', 'direction_id', 'wheelchair_accessible'],
  ];
  const times: Row[] = [['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']];
  const trip = (id: string, dir: number, headsign: string, platform: string, t: string, next: string) => {
    // A and D take a wheelchair, B does not, C does not say.
    trips.push(['R1', 'ALL', id, headsign, dir, { A: 1, B: 2, C: '', D: 1 }[id] ?? '']);
    times.push([id, t, t, platform, 1], [id, next, next, dir === 0 ? 'N' : 'S', 2]);
  };
  trip('A', 0, 'Nord', 'P1', '11:04:00', '11:20:00');
  trip('B', 1, 'Süd', 'P2', '11:06:00', '11:20:00');
  trip('C', 0, 'Nord', 'P1', '11:12:00', '11:30:00');
  trip('D', 1, 'Flughafen', 'P2', '11:20:00', '11:40:00');
  return {
    'agency.txt': [
      ['agency_id', 'agency_name', 'agency_url', 'agency_timezone'],
      ['A', 'Test', 'https://example.org', 'Europe/Berlin'],
    ],
    'stops.txt': [
      ['stop_id', 'stop_name', 'location_type', 'parent_station', 'platform_code'],
      ['S1', 'Central', 1, '', ''],
      ['P1', 'Central 1', 0, 'S1', '1'],
      ['P2', 'Central 2', 0, 'S1', '2'],
      ['N', 'Nord', 0, '', ''],
      ['S', 'Süd', 0, '', ''],
    ],
    'routes.txt': [
      ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type'],
      ['R1', 'A', '1', '', 1],
    ],
    'trips.txt': trips,
    'stop_times.txt': times,
    'calendar.txt': [CALENDAR_HEADER, ['ALL', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231']],
  };
}

/** Today's departures (tomorrow's trips follow them). */
const rows = (feeds: FeedsComponent, extra: Partial<BoardQuery> = {}) =>
  feeds
    .board({ feed: 'city', stops: ['S1'], staleAfter: 180, now: T0, limit: 9, ...extra })
    .departures.filter((d) => d.time < T0 + 3_600_000)
    .map(
      (d) =>
        `${d.destination}|${d.platform}${d.platformChanged ? '|changed' : ''}|${new Date(d.time).toISOString().slice(11, 16)}`,
    );

test(
  'filters by direction_id and headsign, walkMinutes, and a platform assigned by the feed shown as a change ' +
    'with its platform',
  async () => {
    const srv = await feedServer();
    const clock = new FakeClock(T0);
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-filters-'));
    // Trip C leaves from platform 2 instead of 1.
    srv.bodies.set(
      '/tu',
      feedMessage(
        [
          {
            id: 'C',
            tripUpdate: {
              trip: { tripId: 'C' },
              stopTimeUpdate: [
                {
                  stopSequence: 1,
                  stopId: 'P1',
                  departure: { time: sec(at('11:12:00')) },
                  stopTimeProperties: { assignedStopId: 'P2' },
                },
              ],
            },
          },
        ],
        T0,
      ),
    );
    const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
    const rig = await feedsRig(
      boardConfig({ city: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'gtfs.zip', interval: '30' } }, ['S1']),
      clock,
      { 'gtfs.zip': zip },
    );
    try {
      await until(
        () => rig.feeds.board({ feed: 'city', stops: ['S1'], staleAfter: 180, now: T0, limit: 9 }).state === 'live',
        10_000,
        'live data',
      );
      // 11:00 in Berlin is 10:00 UTC.
      assert.deepEqual(rows(rig.feeds), ['Nord|1|10:04', 'Süd|2|10:06', 'Nord|2|changed|10:12', 'Flughafen|2|10:20']);
      assert.deepEqual(rows(rig.feeds, { directions: [0] }), ['Nord|1|10:04', 'Nord|2|changed|10:12']);
      assert.deepEqual(rows(rig.feeds, { directions: [1], headsigns: ['Flughafen'] }), ['Flughafen|2|10:20']);
      assert.deepEqual(rows(rig.feeds, { headsigns: ['Süd', 'Flughafen'] }), ['Süd|2|10:06', 'Flughafen|2|10:20']);
      // A 5-minute walk: the 11:04 cannot be reached.
      assert.deepEqual(rows(rig.feeds, { notBefore: T0 + 5 * 60_000 }), [
        'Süd|2|10:06',
        'Nord|2|changed|10:12',
        'Flughafen|2|10:20',
      ]);
      // The limit counts what the filters keep.
      assert.deepEqual(rows(rig.feeds, { directions: [1], limit: 2 }), ['Süd|2|10:06', 'Flughafen|2|10:20']);
    } finally {
      await rig.stop();
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'a departure says whether its vehicle takes a wheelchair and how full ' + 'it is, from the schedule and the feed',
  async () => {
    const srv = await feedServer();
    const clock = new FakeClock(T0);
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-riders-'));
    const OS = rt.VehiclePosition.OccupancyStatus;
    srv.bodies.set(
      '/tu',
      feedMessage(
        [
          // A's vehicle is full; B's stop update says few seats at Central (it wins over its vehicle's).
          { id: 'vA', vehicle: { trip: { tripId: 'A' }, occupancyStatus: OS.FULL } },
          { id: 'vB', vehicle: { trip: { tripId: 'B' }, occupancyStatus: OS.EMPTY } },
          {
            id: 'B',
            tripUpdate: {
              trip: { tripId: 'B' },
              stopTimeUpdate: [
                { stopSequence: 1, departure: { delay: 60 }, departureOccupancyStatus: OS.FEW_SEATS_AVAILABLE },
              ],
            },
          },
        ],
        T0,
      ),
    );
    const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
    const rig = await feedsRig(
      boardConfig({ city: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'gtfs.zip', interval: '30' } }, ['S1']),
      clock,
      { 'gtfs.zip': zip },
    );
    try {
      const q = { feed: 'city', stops: ['S1'], staleAfter: 180, now: T0, limit: 4 };
      await until(() => rig.feeds.board(q).state === 'live', 10_000, 'live data');
      const riders = () =>
        rig.feeds.board(q).departures.map((d) => `${d.key.split('/')[0]}|${d.accessible ?? '-'}|${d.occupancy ?? '-'}`);
      assert.deepEqual(riders(), ['A|true|FULL', 'B|false|FEW_SEATS_AVAILABLE', 'C|-|-', 'D|true|-']);
      // Stale: the schedule's wheelchair data stays, the feed's occupancy goes.
      clock.advance(200_000);
      const stale = rig.feeds
        .board({ ...q, now: clock.now() })
        .departures.map((d) => `${d.key.split('/')[0]}|${d.accessible ?? '-'}|${d.occupancy ?? '-'}`);
      assert.deepEqual(stale, ['A|true|-', 'B|false|-', 'C|-|-', 'D|true|-']);
    } finally {
      await rig.stop();
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
