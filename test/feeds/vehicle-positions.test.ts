// A GTFS-realtime feed whose VehiclePositions are served apart from its TripUpdates, as the MBTA
// serves them (mbta.ts), over HTTP on loopback into the feeds component: each vehicle's
// occupancy joined to the rows by its trip's run, or by its vehicle id through the trip update;
// the wheelchair_boarding of the station's platforms beside the trips' wheelchair_accessible;
// unreadable positions skipped and counted; a failing positions poll a problem of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/config/board-source.js';
import { configFaults } from '../helpers/config-faults.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig, gtfsZip } from './fixtures.js';
import { hms, mbtaSchedule, mbtaTripUpdates, mbtaVehiclePositions } from './mbta.js';
import { NY0 } from './nyct.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** 11:40 in New York, seconds of Friday 4 December 2026's service day. */
const FIRST = (11 * 60 + 40) * 60;

test(
  'vehiclePositionsUrl: occupancy from a separate VehiclePositions feed joined by trip run or vehicle id, ' +
    'with the stop-aware accessible cell; bad positions skipped and counted',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-vp-'));
    const srv = await feedServer();
    const clock = new FakeClock(NY0);
    srv.bodies.set('/tripupdates', mbtaTripUpdates(NY0, '20261204'));
    srv.bodies.set('/vehiclepositions', mbtaVehiclePositions(NY0, '20261204', '20261205', hms(FIRST + 60)));
    const zip = readFileSync(await gtfsZip(path.join(dir, 'mbta.zip'), mbtaSchedule(FIRST)));
    const feed = {
      type: 'gtfs-rt',
      url: srv.url('/tripupdates'),
      vehiclePositionsUrl: srv.url('/vehiclepositions'),
      static: 'gtfs.zip',
      interval: '30',
      headers: { 'x-api-key': 'mbta-key-0042' },
    };
    const r = await feedsRig(boardConfig({ mbta: feed }, ['place-dwnxg']), clock, { 'gtfs.zip': zip });
    const st = () => (r.feeds.status().feeds as Obj).mbta;
    const q: BoardQuery = { feed: 'mbta', stops: ['place-dwnxg'], staleAfter: 180, now: NY0, limit: 8 };
    const hhmm = (t: number) => new Date(t - 5 * 3600_000).toISOString().slice(11, 16);
    const rows = (query: BoardQuery) =>
      r.feeds
        .board(query)
        .departures.map((d) => `${hhmm(d.time)} ${d.route} ${d.accessible ?? '-'} ${d.occupancy ?? '-'}`);
    try {
      await until(
        () => st().schedule?.state === 'ok' && st().state === 'ok' && st().vehiclePositions?.state === 'ok',
        10_000,
        'the schedule and both polls',
      );

      assert.deepEqual(rows(q), [
        // The shuttle's 11:41 run (start_time) has standing room; platform 70020 has its station's step-free access.
        '11:43 SHU true STANDING_ROOM_ONLY',
        // OL-S-1, a minute late, its vehicle full.
        '11:46 OL true FULL',
        // OL-N-1 leaves from 70021, whose elevator is out; its vehicle (y1900) names no trip: joined by vehicle id.
        '11:47 OL false FEW_SEATS_AVAILABLE',
        // A trip of a route routes.txt lacks still runs, under its route_id.
        '11:48 Purple true -',
        // OL-S-2 does not take a wheelchair; the position for it is tomorrow's run.
        '11:49 OL false -',
        // OL-S-3 does not say; its position (a timestamp in milliseconds) could not be read.
        '11:52 OL - -',
        // The shuttle's next run: no position for it.
        '11:53 SHU true -',
        '12:03 SHU true -',
      ]);
      assert.deepEqual(
        {
          count: st().vehiclePositions.skippedEntities.count,
          ids: st().vehiclePositions.skippedEntities.named.map((e: Obj) => e.id),
        },
        { count: 2, ids: ['y1500', 'y2000'] },
      );
      assert.match(st().vehiclePositions.skippedEntities.named[0].reason, /not in POSIX seconds/);
      // Positions kept: three trips' (OL-S-1, the shuttle, OL-S-2 tomorrow) and y1900's, which names no trip.
      assert.deepEqual([st().vehiclePositions.trips, st().vehiclePositions.vehicles], [3, 1]);
      assert.ok(
        srv.got.filter((g) => g.path === '/vehiclepositions').every((g) => g.headers['x-api-key'] === 'mbta-key-0042'),
        "the positions are fetched with the feed's headers",
      );
      assert.deepEqual(r.feeds.problems(), []);

      // The positions fail: a problem of their own, the last good ones stay while fresh.
      srv.bodies.set('/vehiclepositions', (_req, res) => {
        res.statusCode = 500;
        res.end('upstream timeout');
      });
      srv.bodies.set('/tripupdates', mbtaTripUpdates(NY0 + 30_000, '20261204'));
      clock.advance(30_000);
      await until(
        () => st().vehiclePositions.state === 'fault' && st().feedTimestamp === new Date(NY0 + 30_000).toISOString(),
        10_000,
        'the failed positions poll and the new trip updates',
      );
      assert.match(
        r.feeds
          .problems()
          .map((p) => p.message)
          .join(' | '),
        /feed "mbta" vehicle positions: .*500/,
      );
      assert.equal(rows({ ...q, now: clock.now() })[1], '11:46 OL true FULL');
      // The trip updates are fresh (their time moved at +30 s), the positions 200 s old, past staleAfter: the
      // rows stay live, occupancy is no longer said; the schedule's accessibility stays.
      assert.deepEqual(rows({ ...q, now: NY0 + 200_000 }).slice(0, 3), [
        '11:46 OL true -',
        '11:47 OL false -',
        '11:48 Purple true -',
      ]);
    } finally {
      await r.stop();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('vehiclePositionsUrl is checked at load: gtfs-rt only, the URL rules; the schema knows it', () => {
  const faults = configFaults((c) => {
    c.feeds = {
      a: { type: 'siri', url: 'http://127.0.0.1:8080/sm', vehiclePositionsUrl: 'http://127.0.0.1:8080/vp' },
      b: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', vehiclePositionsUrl: 'http://127.0.0.1:22/vp' },
      c: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', vehiclePositionsUrl: 'ftp://x/vp' },
    };
  });
  const at = (p: string) =>
    faults
      .filter((f) => f.path === p)
      .map((f) => f.message)
      .join(' | ');
  assert.match(at('/feeds/a/vehiclePositionsUrl'), /only a gtfs-rt feed/);
  assert.match(at('/feeds/b/vehiclePositionsUrl'), /port 22/);
  assert.ok(at('/feeds/c/vehiclePositionsUrl'), JSON.stringify(faults));
  assert.deepEqual(
    configFaults((c) => {
      c.feeds = {
        ok: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', vehiclePositionsUrl: 'http://127.0.0.1:8080/vp' },
      };
    }),
    [],
  );
});
