// The machine runs in another zone than the schedule: nothing may follow the process's zone.
process.env.TZ = 'Pacific/Auckland';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { CALENDAR_HEADER, boardConfig, feedMessage, feedServer, feedsRig, gtfsZip } from './fixtures.js';

test(
  'a schedule in New York on a machine in Auckland: a trip at 25:10 belongs to the day before, and the day ' +
    'DST begins counts from noon minus 12 h',
  async () => {
    assert.equal(new Date(Date.UTC(2026, 2, 8, 5, 30)).getHours(), 18, 'the process runs in Auckland');
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
    const srv = await feedServer();
    // Sunday 8 March 2026, 00:30 in New York (EST, UTC-5); clocks go forward at 02:00 that night.
    const now = Date.UTC(2026, 2, 8, 5, 30);
    const clock = new FakeClock(now);
    srv.bodies.set('/tu', feedMessage([], now));
    const zip = readFileSync(
      await gtfsZip(path.join(dir, 'g.zip'), {
        'agency.txt': [
          ['agency_name', 'agency_url', 'agency_timezone'],
          ['X', 'https://example.org', 'Europe/Berlin'],
        ],
        'stops.txt': [
          ['stop_id', 'stop_name'],
          ['A', 'Times Sq'],
          ['B', 'Coney Island'],
        ],
        'routes.txt': [
          ['route_id', 'route_short_name', 'route_type'],
          ['N', 'N', 1],
        ],
        'trips.txt': [
          ['route_id', 'service_id', 'trip_id'],
          ['N', 'SAT', 'night'],
          ['N', 'SUN', 'morning'],
          ['N', 'EXTRA', 'added'],
          ['N', 'GONE', 'removed'],
        ],
        'stop_times.txt': [
          ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'],
          ['night', '25:10:00', '25:10:00', 'A', 1],
          ['night', '26:00:00', '26:00:00', 'B', 2],
          ['morning', '08:00:00', '08:00:00', 'A', 1],
          ['morning', '09:00:00', '09:00:00', 'B', 2],
          ['added', '10:00:00', '10:00:00', 'A', 1],
          ['added', '11:00:00', '11:00:00', 'B', 2],
          ['removed', '10:30:00', '10:30:00', 'A', 1],
          ['removed', '11:30:00', '11:30:00', 'B', 2],
        ],
        'calendar.txt': [
          CALENDAR_HEADER,
          ['SAT', 0, 0, 0, 0, 0, 1, 0, '20260101', '20261231'],
          ['SUN', 0, 0, 0, 0, 0, 0, 1, '20260101', '20261231'],
          ['GONE', 1, 1, 1, 1, 1, 1, 1, '20260101', '20261231'],
        ],
        'calendar_dates.txt': [
          ['service_id', 'date', 'exception_type'],
          ['EXTRA', '20260308', 1],
          ['GONE', '20260308', 2],
        ],
      }),
    );
    const rig = await feedsRig(
      boardConfig({ mta: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'g.zip', timezone: 'America/New_York' } }, [
        'A',
      ]),
      clock,
      { 'g.zip': zip },
    );
    try {
      await until(
        () => rig.feeds.board({ feed: 'mta', stops: ['A'], staleAfter: 60, now, limit: 4 }).state === 'live',
        10_000,
        'the feed',
      );
      const b = rig.feeds.board({ feed: 'mta', stops: ['A'], staleAfter: 60, now, limit: 4 });
      assert.deepEqual(
        b.departures.map((d) => `${d.key.split('/')[0]} ${new Date(d.time).toISOString()} ${d.destination}`),
        [
          'night 2026-03-08T06:10:00.000Z Coney Island', // Saturday's 25:10 = Sunday 01:10 EST
          // 08:00 EDT: counted from noon minus 12 h, not from midnight EST
          'morning 2026-03-08T12:00:00.000Z Coney Island',
          // added for the day by calendar_dates.txt; "removed" is removed
          'added 2026-03-08T14:00:00.000Z Coney Island',
          'removed 2026-03-09T14:30:00.000Z Coney Island', // removed on Sunday only: Monday's runs
        ],
      );
      assert.equal(
        (rig.feeds.status().feeds as Record<string, { zone: string }>).mta.zone,
        'America/New_York',
        "the configured zone before agency.txt's",
      );
    } finally {
      await rig.stop();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
