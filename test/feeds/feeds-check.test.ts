import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { normalize } from '../../src/config/normalize.js';
import type { ConfigFault } from '../../src/config/faults.js';
import { checkSchedules } from '../../src/preview/feeds-check.js';
import { boardConfig, feedServer, feedsRig, gtfsZip } from './fixtures.js';
import { at, schedule, T0, tripUpdates } from './gtfs-sample.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { renderLayoutsToPng } from '../../src/preview/render.js';

test(
  'mlds test reads a schedule in the service folder offline; an unknown stop, a route that does not depart ' +
    'there and an unreadable zip are faults naming the field; it draws the boards from it',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
    try {
      writeFileSync(
        path.join(dir, 'good.zip'),
        readFileSync(await gtfsZip(path.join(tmpdir(), `g-${process.pid}.zip`), schedule())),
      );
      writeFileSync(path.join(dir, 'bad.zip'), 'PK but not really');
      const raw = boardConfig(
        { good: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: 'good.zip' } },
        ['S1', 'NOPE', 'S2'],
        {},
        { routes: ['12', '99'] },
      );
      (raw.feeds as Record<string, unknown>).bad = {
        type: 'gtfs-rt',
        url: 'http://127.0.0.1:8080/tu',
        static: 'bad.zip',
      };
      (raw.feeds as Record<string, unknown>).remote = {
        type: 'gtfs-rt',
        url: 'http://127.0.0.1:8080/tu',
        static: 'http://127.0.0.1:8080/g.zip',
      };
      const faults: ConfigFault[] = [];
      const r = await checkSchedules(normalize(raw, dir, faults));
      assert.deepEqual(faults, []);
      assert.deepEqual(r.notes, [
        "feed good: schedule read: 10 trips and 29 stop times for the boards' 3 stop(s), zone Europe/Berlin",
        'feed remote: the schedule is fetched at start (not checked offline)',
      ]);
      // Hauptbahnhof (S2) is where trips end: known, but no departure there.
      assert.deepEqual(r.warnings, [
        '/displays/stop1/layout/board/deps/stops: no trip of feed good\'s schedule departs from stop "S2"',
      ]);
      assert.deepEqual(r.faults.slice(0, 2), [
        {
          path: '/displays/stop1/layout/board/deps/stops/1',
          message: 'feed good\'s schedule has no stop "NOPE" (stops.txt)',
        },
        {
          path: '/displays/stop1/layout/board/deps/routes/1',
          message: 'no trip of route "99" in feed good\'s schedule departs from the board\'s stops',
        },
      ]);
      assert.equal(r.faults.length, 3);
      assert.equal(r.faults[2].path, '/feeds/bad/static');
      assert.match(r.faults[2].message, /not a zip file/);

      // The schedule read is the sample the previews draw the boards from: scheduled, not live.
      const b = r.boards.board({ feed: 'good', stops: ['S1'], staleAfter: 180, now: T0, limit: 3 });
      assert.equal(b.state, 'scheduled');
      assert.deepEqual(
        b.departures.map((d) => [d.route, d.destination, d.time, d.live]),
        [
          ['12', 'Hauptbahnhof', at('11:05'), false],
          ['12', 'Hauptbahnhof', at('11:10'), false],
          ['12', 'Hauptbahnhof', at('11:15'), false],
        ],
      );
      assert.equal(
        r.boards.board({ feed: 'remote', stops: ['S1'], staleAfter: 180, now: T0, limit: 3 }).state,
        'no-data',
      );
      const config = normalize(
        boardConfig(
          { good: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: 'good.zip' } },
          ['S1'],
          {},
          {
            columns: [
              { field: 'route', width: '30' },
              { field: 'destination', width: '160' },
            ],
          },
        ),
        dir,
        [],
      );
      const [withSample] = await renderLayoutsToPng(config, r.boards);
      const [without] = await renderLayoutsToPng(config);
      assert.ok(!withSample.png.equals(without.png), 'the board drawn from the schedule, not its noDataText');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(path.join(tmpdir(), `g-${process.pid}.zip`), { force: true });
    }
  },
);

test(
  'in the service, a schedule that arrives later makes an unknown stop and a route that does not depart there ' +
    'problems on /status, naming the field',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
    const srv = await feedServer();
    const clock = new FakeClock(T0);
    srv.bodies.set('/tu', tripUpdates(T0));
    srv.bodies.set('/gtfs.zip', readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule())));
    const raw = boardConfig(
      { vbb: { type: 'gtfs-rt', url: srv.url('/tu'), static: srv.url('/gtfs.zip') } },
      ['S1', 'NOPE'],
      {},
      { routes: ['12', '99'] },
    );
    const rig = await feedsRig(raw, clock);
    try {
      const messages = () => rig.feeds.problems().map((p) => p.message);
      await until(() => messages().length > 0, 10_000, 'the schedule read');
      assert.deepEqual(messages(), [
        'feed "vbb": /displays/stop1/layout/board/deps/stops/1: feed vbb\'s schedule has no stop "NOPE" (stops.txt)',
        'feed "vbb": /displays/stop1/layout/board/deps/routes/1: no trip of route "99" in feed vbb\'s schedule ' +
          "departs from the board's stops",
      ]);
    } finally {
      await rig.stop();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
