// What a producer gets wrong, and what the service makes of it: an answer that is no feed at all,
// one malformed entity among good ones, a producer whose clock is off. Real HTTP on loopback,
// feeds encoded with MobilityData's bindings, the schedule of gtfs-sample.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig, gtfsZip, type FeedServer, type FeedsRig } from './fixtures.js';
import { schedule, T0, tripUpdates } from './gtfs-sample.js';
import { ld, NY0, nyAt, nyctFeed, nycSchedule } from './nyct.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The sample schedule and a feed `vbb` at /tu polled every 30 s, with `feed` fields added. */
async function rig(
  clock: FakeClock,
  feed: Record<string, unknown> = {},
): Promise<{ srv: FeedServer; r: FeedsRig; done(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
  const srv = await feedServer();
  const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
  const r = await feedsRig(
    boardConfig({ vbb: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'gtfs.zip', interval: '30', ...feed } }, ['S1']),
    clock,
    { 'gtfs.zip': zip },
  );
  return {
    srv,
    r,
    done: async () => {
      await r.stop();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const statusOf = (r: FeedsRig) => (r.feeds.status().feeds as Obj).vbb;

test(
  'a maintenance page or other bytes where the feed should be: the fault says what came (type, first bytes), ' +
    'never the key',
  async () => {
    const clock = new FakeClock(T0);
    const { srv, r, done } = await rig(clock, { headers: { 'x-api-key': 'k3y-s3cret' } });
    try {
      srv.bodies.set('/tu', (_req, res) => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          '<!DOCTYPE html>\n<html><head><title>Scheduled maintenance</title></head><body>key k3y-s3cret: back at ' +
            '04:00</body></html>',
        );
      });
      await until(() => statusOf(r).realtime.failures === 1, 10_000, 'the first poll');
      const fault = statusOf(r).lastFault as string;
      assert.match(
        fault,
        /^not a GTFS-realtime feed: the answer is text\/html; charset=utf-8, \d+ bytes, beginning "<!DOCTYPE html> <html><head><title>Scheduled maintenance/,
      );
      assert.doesNotMatch(fault, /wire type/);
      assert.match(r.feeds.problems()[0].message, /text\/html/);

      // A JSON error that echoes the key: the key is masked.
      srv.bodies.set('/tu', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end('{"error": "key k3y-s3cret has expired"}');
      });
      clock.advance(30_000);
      await until(() => statusOf(r).realtime.failures === 2, 10_000, 'the JSON poll');
      assert.equal(
        statusOf(r).lastFault,
        'not a GTFS-realtime feed: the answer is application/json, 39 bytes, beginning "{"error": "key *** has ' +
          'expired"}"',
      );

      // Binary bytes that are no FeedMessage: the decoder's word, and the bytes in hex.
      srv.bodies.set('/tu', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x03]));
      clock.advance(60_000);
      await until(() => statusOf(r).realtime.failures === 3, 10_000, 'the binary poll');
      assert.match(
        statusOf(r).lastFault,
        /\(the answer is no content type, 7 bytes, beginning bytes 1f 8b 08 00 ff fe 03\)$/,
      );

      // An empty 200.
      srv.bodies.set('/tu', (_req, res) => {
        res.setHeader('content-type', 'application/x-protobuf');
        res.end();
      });
      clock.advance(120_000);
      await until(() => statusOf(r).realtime.failures === 4, 10_000, 'the empty poll');
      assert.equal(statusOf(r).lastFault, 'not a GTFS-realtime feed: the answer is empty (application/x-protobuf)');

      // The feed again: it is read.
      srv.bodies.set('/tu', tripUpdates(T0));
      clock.advance(240_000);
      await until(() => statusOf(r).state === 'ok', 10_000, 'the feed back');
      assert.equal(
        r.feeds.board({ feed: 'vbb', stops: ['S1'], staleAfter: 600, now: clock.now(), limit: 3 }).state,
        'live',
      );
    } finally {
      await done();
    }
  },
);

test(
  'one malformed entity (a time in milliseconds, a stop_time_update naming no stop, broken bytes) is skipped ' +
    'and named on /status; the rest is used',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
    const srv = await feedServer();
    const clock = new FakeClock(NY0);
    const zip = readFileSync(await gtfsZip(path.join(dir, 'nyc.zip'), nycSchedule()));
    srv.bodies.set(
      '/nyct',
      nyctFeed(NY0, [
        {
          id: '000001',
          tripId: '068700_1..S03R',
          route: '1',
          startDate: '20261204',
          stops: [
            { stop: '127S', arrival: nyAt('11:57'), departure: nyAt('11:57'), track: '1' },
            { stop: '142S', arrival: nyAt('12:12') },
          ],
        },
        // A trip of another line, its time in milliseconds.
        {
          id: '000002',
          tripId: '071500_2..N01R',
          route: '2',
          startDate: '20261204',
          stops: [{ stop: '227N', arrival: nyAt('12:15') * 1000 }],
        },
        { id: '000003', tripId: '069000_3..S01R', route: '3', startDate: '20261204', stops: [{ stop: '' }] },
        {
          id: '000004',
          tripId: '',
          route: '',
          startDate: '',
          stops: [],
          raw: Buffer.concat([ld(1, '000004'), ld(3, Buffer.from([0x0a, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff]))]),
        },
        {
          id: '000005',
          tripId: '070200_1..S03R',
          route: '1',
          startDate: '20261204',
          stops: [{ stop: '127S', departure: nyAt('12:12') }],
        },
      ]),
    );
    const r = await feedsRig(
      boardConfig({ nyct: { type: 'gtfs-rt', url: srv.url('/nyct'), static: 'gtfs.zip', interval: '30' } }, ['127S']),
      clock,
      { 'gtfs.zip': zip },
    );
    try {
      const st = () => (r.feeds.status().feeds as Obj).nyct;
      await until(
        () => st().schedule?.state === 'ok' && st().state !== 'waiting',
        10_000,
        'the schedule and the first poll',
      );
      assert.equal(st().state, 'ok', st().lastFault);
      const board = r.feeds.board({ feed: 'nyct', stops: ['127S'], staleAfter: 90, now: NY0, limit: 5 });
      assert.equal(board.state, 'live');
      assert.deepEqual(
        board.departures.map((d) => `${new Date(d.time).toISOString().slice(11, 16)}|${d.live ? 'live' : 'sched'}`),
        ['16:57|live', '17:12|live', '06:17|sched'],
      );
      assert.deepEqual(st().skippedEntities, {
        count: 3,
        named: [
          { id: '000002', reason: `an arrival time ${nyAt('12:15')} is not in POSIX seconds (milliseconds?)` },
          { id: '000003', reason: 'trip 069000_3..S01R: a stop_time_update names no stop' },
          { id: '000004', reason: st().skippedEntities.named[2].reason },
        ],
      });
      assert.match(st().skippedEntities.named[2].reason, /.+/);
      assert.deepEqual(r.feeds.problems(), [], 'the feed is used: no fault');
    } finally {
      await r.stop();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

const board = (r: FeedsRig, now: number, staleAfter: number) =>
  r.feeds.board({ feed: 'vbb', stops: ['S1'], staleAfter, now, limit: 3 });
/** Advances the clock to the next poll and waits until it is answered. */
async function nextPoll(clock: FakeClock, srv: FeedServer, r: FeedsRig, ms = 30_000): Promise<void> {
  const before = srv.got.length;
  clock.advance(ms);
  await until(
    () => srv.got.length > before && statusOf(r).realtime.nextPollAt !== undefined,
    10_000,
    'a poll answered',
  );
}

test('a producer 300 s slow: boards stay live, and the skew is a problem on /status', async () => {
  const clock = new FakeClock(T0);
  const { srv, r, done } = await rig(clock);
  srv.bodies.set('/tu', (_req, res) => res.end(tripUpdates(clock.now() - 300_000)));
  try {
    await until(() => statusOf(r).state === 'ok' && statusOf(r).schedule.state === 'ok', 10_000, 'the first poll');
    for (let i = 0; i < 4; i++) {
      assert.equal(board(r, clock.now(), 90).state, 'live', `poll ${i}`);
      await nextPoll(clock, srv, r);
    }
    assert.equal(statusOf(r).clockSkewSeconds, -300);
    const problems = r.feeds.problems();
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.match(problems[0].message, /^feed "vbb": its time is 300 s behind the unit's clock \(maxClockSkew 120 s\)/);
  } finally {
    await done();
  }
  // Within a feed's own maxClockSkew, 300 s is no problem, and its time is trusted: the data is 300 s old.
  const wide = await rig(clock, { maxClockSkew: '400' });
  wide.srv.bodies.set('/tu', (_req, res) => res.end(tripUpdates(clock.now() - 300_000)));
  try {
    await until(
      () => statusOf(wide.r).state === 'ok' && statusOf(wide.r).schedule.state === 'ok',
      10_000,
      'the first poll',
    );
    assert.deepEqual(wide.r.feeds.problems(), []);
    assert.equal(statusOf(wide.r).dataAgeSeconds, 300);
    assert.equal(board(wide.r, clock.now(), 90).state, 'scheduled');
  } finally {
    await wide.done();
  }
});

test("a producer 600 s fast that stops updating goes stale at staleAfter by the unit's clock", async () => {
  const clock = new FakeClock(T0);
  const { srv, r, done } = await rig(clock);
  srv.etags = false;
  let frozen: Buffer | undefined;
  srv.bodies.set('/tu', (_req, res) => res.end(frozen ?? tripUpdates(clock.now() + 600_000)));
  try {
    await until(() => statusOf(r).state === 'ok' && statusOf(r).schedule.state === 'ok', 10_000, 'the first poll');
    await nextPoll(clock, srv, r);
    assert.equal(board(r, clock.now(), 45).state, 'live');
    // The producer stops: the same file, its time no longer moving, fetched afresh every poll.
    frozen = tripUpdates(clock.now() + 30_000 + 600_000);
    await nextPoll(clock, srv, r);
    const changed = clock.now();
    await nextPoll(clock, srv, r);
    assert.equal(statusOf(r).realtime.ageSeconds, 0, 'fetched just now');
    assert.equal(board(r, changed + 45_000, 45).state, 'live');
    assert.equal(board(r, changed + 46_000, 45).state, 'scheduled');
    assert.equal(statusOf(r).clockSkewSeconds, 600);
    assert.match(
      r.feeds.problems()[0]?.message ?? '',
      /^feed "vbb": its time is 600 s ahead of the unit's clock \(maxClockSkew 120 s\)/,
    );
  } finally {
    await done();
  }
});
