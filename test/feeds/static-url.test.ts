import assert from 'node:assert/strict';
import { test } from 'node:test';
import { until } from '../helpers/wait.js';
import { boardConfig, feedsRig } from './fixtures.js';
import { sampleFeed, scheduleZip, T0 } from './gtfs-sample.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test(
  'a schedule at a URL is fetched at start, tried again ' + 'within the hour after a failure, and daily after that',
  async () => {
    const { srv, clock } = await sampleFeed();
    const zip = await scheduleZip();
    srv.bodies.set('/gtfs.zip', (_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const rig = await feedsRig(
      boardConfig({ vbb: { type: 'gtfs-rt', url: srv.url('/tu'), static: srv.url('/gtfs.zip'), interval: '30' } }, [
        'S1',
      ]),
      clock,
    );
    const sched = () => (rig.feeds.status().feeds as Obj).vbb.schedule;
    const fetches = () => srv.got.filter((g) => g.path === '/gtfs.zip').length;
    const q = { feed: 'vbb', stops: ['S1'], staleAfter: 180, now: T0, limit: 3 };
    try {
      await until(
        () => sched().state === 'fault' && sched().nextLoadAt && (rig.feeds.status().feeds as Obj).vbb.state === 'ok',
        10_000,
        'the failed download and the first poll',
      );
      assert.equal(sched().nextLoadAt, new Date(T0 + 3600_000).toISOString(), 'again within the hour');
      assert.match(sched().lastFault, /HTTP 503/);
      assert.equal(rig.feeds.board(q).state, 'live', 'the realtime feed runs without its schedule');
      // Without a schedule only an update naming S1 with a time can be placed: T2's.
      assert.deepEqual(
        rig.feeds.board(q).departures.map((d) => [d.key, new Date(d.time).toISOString(), d.live]),
        [['T2/S1/', '2026-11-28T10:13:30.000Z', true]],
      );

      srv.bodies.set('/gtfs.zip', zip);
      clock.advance(3600_000);
      await until(() => sched().state === 'ok' && sched().nextLoadAt, 10_000, 'the schedule after an hour');
      assert.equal(sched().nextLoadAt, new Date(T0 + 3600_000 + 24 * 3600_000).toISOString(), 'then daily');
      assert.equal(fetches(), 2);
      assert.equal(sched().trips, 10);
      await until(
        () => rig.feeds.board({ ...q, now: clock.now() - 3590_000, staleAfter: 7200 }).departures.length === 3,
        10_000,
        'the board from the schedule',
      );

      clock.advance(24 * 3600_000 - 1000);
      assert.equal(fetches(), 2, 'not again before a day');
      clock.advance(1000);
      await until(() => fetches() === 3, 10_000, 'the daily download');
    } finally {
      await rig.stop();
      srv.close();
    }
  },
);

test(
  'a schedule at a URL that keeps failing is fetched again less and less often: after 1, 2, 4 hours, then ' +
    'daily once read',
  async () => {
    const { srv, clock } = await sampleFeed();
    srv.bodies.set('/gtfs.zip', 'PK but not a zip');
    const feed = { type: 'gtfs-rt', url: srv.url('/tu'), static: srv.url('/gtfs.zip'), interval: '30' };
    const rig = await feedsRig(boardConfig({ vbb: feed }, ['S1']), clock);
    const sched = () => (rig.feeds.status().feeds as Obj).vbb.schedule;
    const fetches = () => srv.got.filter((g) => g.path === '/gtfs.zip').length;
    const iso = (ms: number) => new Date(ms).toISOString();
    try {
      let at = T0;
      for (const [tries, hours] of [
        [1, 1],
        [2, 2],
        [3, 4],
      ]) {
        const next = iso(at + hours * 3600_000);
        const failed = () => fetches() === tries && sched().state === 'fault' && sched().nextLoadAt === next;
        await until(failed, 10_000, () => `try ${tries}: ${JSON.stringify(sched())}`);
        assert.match(sched().lastFault, /not a zip file/);
        clock.advance(hours * 3600_000 - 1000);
        assert.equal(fetches(), tries, `not again within ${hours} h`);
        if (tries === 3) srv.bodies.set('/gtfs.zip', await scheduleZip());
        clock.advance(1000);
        at += hours * 3600_000;
      }
      const daily = () => sched().state === 'ok' && sched().nextLoadAt === iso(at + 24 * 3600_000);
      await until(daily, 10_000, () => `read, then daily: ${JSON.stringify(sched())}`);
    } finally {
      await rig.stop();
      srv.close();
    }
  },
);
