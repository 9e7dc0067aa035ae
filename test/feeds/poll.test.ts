import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/config/board-source.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig } from './fixtures.js';
import { sampleFeed, scheduleZip, tripUpdates } from './gtfs-sample.js';

const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const q = (now: number): BoardQuery => ({ feed: 'vbb', stops: ['S1'], staleAfter: 180, now, limit: 3 });

test(
  'a feed that stops answering, sends garbage or too much keeps its last good data until it is stale; a 304 ' +
    'keeps it fresh',
  async () => {
    const { srv, clock } = await sampleFeed();
    const zip = await scheduleZip();
    const rig = await feedsRig(
      boardConfig({ vbb: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'gtfs.zip', interval: '30' } }, ['S1'], {
        feedMaxMB: '1',
      }),
      clock,
      { 'gtfs.zip': zip },
    );
    const status = () => (rig.feeds.status().feeds as Obj).vbb;
    const polls = () => srv.got.filter((g) => g.path === '/tu').length;
    const poll = async (n: number, what: string) => {
      clock.advance(30_000);
      await until(() => polls() >= n && status().realtime.nextPollAt !== undefined, 10_000, what);
    };
    try {
      let changes = 0;
      rig.feeds.onChange(() => changes++);
      await until(() => rig.feeds.board(q(T0)).state === 'live', 10_000, 'live data');
      const live = rig.feeds.board(q(T0)).departures.map((d) => d.time);
      const seen = changes;

      // Unchanged: the server answers 304 to the ETag; the data stays and counts as fresh; boards are not told.
      await poll(2, 'the second poll');
      assert.ok(srv.got[srv.got.length - 1].ifNoneMatch, 'If-None-Match sent');
      assert.equal(status().state, 'ok');
      assert.equal(status().ageSeconds, 0, 'a 304 confirms the data');
      assert.equal(changes, seen, 'a 304 changes nothing');

      // Garbage bytes: a fault; the last good data stays.
      srv.bodies.set('/tu', Buffer.from('<html>502 Bad Gateway</html>\n'.repeat(20)));
      await poll(3, 'the garbage poll');
      assert.equal(status().state, 'fault');
      assert.match(
        status().lastFault,
        /^not a GTFS-realtime feed: the answer is no content type, 580 bytes, beginning "<html>502 Bad Gateway<\/html> <html>/,
      );
      assert.equal(status().ageSeconds, 30);
      assert.deepEqual(
        rig.feeds.board(q(T0 + 60_000)).departures.map((d) => d.time),
        live,
        'the last good data is still applied',
      );
      assert.equal(rig.feeds.board(q(T0 + 60_000)).state, 'live');
      const problems = rig.feeds.problems();
      assert.equal(problems.length, 1);
      assert.match(problems[0].message, /feed "vbb": .*the last good data is 30 s old/);

      // Over feedMaxMB (1 MB): refused as it arrives.
      // Chunked, without a Content-Length: counted as it arrives.
      srv.bodies.set('/tu', (_req, res) => {
        for (let i = 0; i < 24; i++) res.write(Buffer.alloc(64 * 1024, 0x0a));
        res.end();
      });
      clock.advance(30_000); // the backoff after one failure is one interval
      await until(() => status().realtime.failures === 2, 10_000, 'the oversized poll');
      assert.match(status().lastFault, /more than 1048576 bytes/);

      // The server stops answering: once the data is older than staleAfter, the board shows the schedule, not live.
      srv.bodies.set('/tu', (req, res) => {
        res.destroy();
      });
      clock.advance(60_000);
      await until(() => status().realtime.failures === 3, 10_000, 'the refused poll');
      // The data is as old as the feed's own timestamp (T0), though a 304 confirmed it at T0 + 30 s.
      assert.equal(rig.feeds.board(q(T0 + 180_000)).state, 'live', 'within staleAfter');
      const stale = rig.feeds.board(q(T0 + 181_000));
      assert.equal(stale.state, 'scheduled');
      assert.ok(
        stale.departures.every((d) => !d.live && !d.cancelled),
        'scheduled times, none marked live',
      );
      assert.equal(
        new Date(stale.departures[0].time).toISOString(),
        '2026-11-28T10:05:00.000Z',
        'T1 at its scheduled time',
      );

      // It answers again: live again, the fault is gone from problems (it stays as the last fault).
      srv.bodies.set('/tu', tripUpdates(T0 + 240_000));
      clock.advance(120_000);
      await until(() => status().state === 'ok', 10_000, 'the feed back');
      assert.equal(rig.feeds.board(q(clock.now())).state, 'live');
      assert.equal(rig.feeds.problems().length, 0);
      assert.match(status().lastFault, /.+/, 'the last fault stays on /status');
    } finally {
      await rig.stop();
      srv.close();
    }
  },
);

test('a schedule without its GTFS feed: no-data, and the fault on /status', async () => {
  const srv = await feedServer();
  const clock = new FakeClock(T0);
  const rig = await feedsRig(
    boardConfig({ vbb: { type: 'gtfs-rt', url: srv.url('/missing'), static: 'gtfs.zip' } }, ['S1']),
    clock,
    { 'gtfs.zip': Buffer.from('not a zip at all') },
  );
  const status = () => (rig.feeds.status().feeds as Obj).vbb;
  try {
    await until(() => status().realtime.failures === 1, 10_000, 'the first poll');
    assert.deepEqual(rig.feeds.board(q(T0)), { state: 'no-data', departures: [] });
    assert.equal(status().schedule.state, 'fault');
    assert.match(status().schedule.lastFault, /not a zip/);
    assert.match(status().realtime.lastFault, /HTTP 404/);
    assert.equal(rig.feeds.problems().length, 2);
  } finally {
    await rig.stop();
    srv.close();
  }
});
