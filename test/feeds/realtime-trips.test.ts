// Trips as an agency's realtime feed gives them, on a board: DELETED and ADDED trips,
// cancellations that outlive the feed going stale, and the switch to the timetable when it does.
// NYCT-shaped feeds (nyct.ts) over real HTTP on loopback; the project's fake clock.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/config/board-source.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig, gtfsZip, rt, type FeedServer, type FeedsRig } from './fixtures.js';
import { NY0, nyAt, nyctFeed, nycSchedule, type NyctTrip } from './nyct.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TR = rt.TripDescriptor.ScheduleRelationship;

/** The NYC schedule, a board on Times Sq-42 St's southbound platform, the feed at /nyct. */
async function nycRig(
  clock: FakeClock,
  board: Record<string, unknown> = {},
  stops = ['127S'],
): Promise<{ srv: FeedServer; r: FeedsRig; done(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
  const srv = await feedServer();
  const zip = readFileSync(await gtfsZip(path.join(dir, 'nyc.zip'), nycSchedule()));
  const r = await feedsRig(
    boardConfig(
      { nyct: { type: 'gtfs-rt', url: srv.url('/nyct'), static: 'gtfs.zip', interval: '30' } },
      stops,
      {},
      board,
    ),
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

const q = (now: number, staleAfter = 90, stops = ['127S']): BoardQuery => ({
  feed: 'nyct',
  stops,
  staleAfter,
  now,
  limit: 9,
});
const local = (ms: number) =>
  new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit' });
const rows = (r: FeedsRig, query: BoardQuery) => {
  const b = r.feeds.board(query);
  return {
    state: b.state,
    rows: b.departures.map(
      (d) =>
        `${d.route}|${d.destination}|${local(d.time)}|${d.live ? 'live' : 'sched'}${d.cancelled ? '|cancelled' : ''}`,
    ),
  };
};
const statusOf = (r: FeedsRig) => (r.feeds.status().feeds as Obj).nyct;
const loaded = (r: FeedsRig) =>
  until(
    () => statusOf(r).schedule?.state === 'ok' && statusOf(r).state === 'ok',
    10_000,
    () => `the schedule and a good poll: ${JSON.stringify(statusOf(r))}`,
  );

const trip = (origin: string, stops: NyctTrip['stops'], relationship?: number): NyctTrip => ({
  id: `00${origin}`,
  tripId: `${origin}_1..S03R`,
  route: '1',
  startDate: '20261204',
  stops,
  relationship,
});

test(
  'a DELETED trip is not shown; an ADDED one goes to the name of its ' + 'last stop; a night trip after 24:00 is live',
  async () => {
    const clock = new FakeClock(NY0);
    const { srv, r, done } = await nycRig(clock);
    srv.bodies.set(
      '/nyct',
      nyctFeed(NY0, [
        trip('068700', [], TR.DELETED),
        trip(
          '069500',
          [
            { stop: '127S', departure: nyAt('12:05'), track: '1' },
            { stop: '137S', arrival: nyAt('12:11') },
            { stop: '142S', arrival: nyAt('12:20') },
          ],
          TR.ADDED,
        ),
        trip('148900', [{ stop: '127S', departure: nyAt('25:19') }]),
      ]),
    );
    try {
      await loaded(r);
      assert.deepEqual(rows(r, q(NY0)), {
        state: 'live',
        rows: ['1|South Ferry|12:05|live', '1|South Ferry|12:10|sched', '1|South Ferry|01:19|live'],
      });
    } finally {
      await done();
    }
  },
);

test(
  "a trip the schedule lacks: at a platform it shows on the station's board; where it ends or only sets down " +
    'it is no departure',
  async () => {
    const clock = new FakeClock(NY0);
    // One board, on station 127 (location_type 1): the feed names only its platforms.
    const { srv, r, done } = await nycRig(clock, {}, ['127']);
    srv.bodies.set(
      '/nyct',
      nyctFeed(NY0, [
        // Added through Times Sq's southbound platform to South Ferry.
        trip(
          '071000',
          [
            { stop: '127S', departure: nyAt('12:15') },
            { stop: '137S', arrival: nyAt('12:21') },
            { stop: '142S', arrival: nyAt('12:30') },
          ],
          TR.ADDED,
        ),
        // An added short turn that ends at Times Sq.
        trip(
          '071500',
          [
            { stop: '101S', departure: nyAt('11:50') },
            { stop: '127S', arrival: nyAt('12:18') },
          ],
          TR.ADDED,
        ),
        // An added train that only sets down at Times Sq (pickup_type NONE) on its way on.
        trip(
          '071800',
          [
            { stop: '127S', arrival: nyAt('12:20'), noPickup: true },
            { stop: '142S', arrival: nyAt('12:35') },
          ],
          TR.ADDED,
        ),
      ]),
    );
    try {
      await loaded(r);
      assert.deepEqual(rows(r, q(NY0, 90, ['127'])), {
        state: 'live',
        rows: [
          '1|South Ferry|11:55|sched',
          '1|South Ferry|12:10|sched',
          '1|South Ferry|12:15|live',
          '1|South Ferry|01:17|sched',
        ],
      });
    } finally {
      await done();
    }
  },
);

test(
  'what the last good data cancelled stays cancelled while the feed answers HTTP 500 and goes stale, until ' +
    'newer data or its time',
  async () => {
    const clock = new FakeClock(NY0);
    const { srv, r, done } = await nycRig(clock);
    srv.bodies.set(
      '/nyct',
      nyctFeed(NY0, [
        trip('068700', [
          { stop: '101S', departure: nyAt('11:28') },
          { stop: '127S', skipped: true },
          { stop: '142S', arrival: nyAt('12:11') },
        ]),
        trip('070200', [], TR.CANCELED),
      ]),
    );
    try {
      await loaded(r);
      const cancelled = [
        '1|South Ferry|11:55|live|cancelled',
        '1|South Ferry|12:10|live|cancelled',
        '1|South Ferry|01:17|sched',
      ];
      assert.deepEqual(rows(r, q(NY0)), { state: 'live', rows: cancelled });

      // The producer fails: HTTP 500 for minutes, past staleAfter (90 s).
      srv.bodies.set('/nyct', (_req, res) => {
        res.statusCode = 500;
        res.end('Internal Server Error');
      });
      clock.advance(30_000);
      await until(() => statusOf(r).realtime.failures === 1, 10_000, 'the failing poll');
      clock.advance(150_000);
      await until(
        () => statusOf(r).realtime.failures >= 2 && statusOf(r).realtime.nextPollAt !== undefined,
        10_000,
        'more failing polls',
      );
      assert.deepEqual(
        rows(r, q(clock.now())),
        {
          state: 'scheduled',
          rows: [
            '1|South Ferry|11:55|sched|cancelled',
            '1|South Ferry|12:10|sched|cancelled',
            '1|South Ferry|01:17|sched',
          ],
        },
        'the skipped stop and the cancelled trip stay cancelled; nothing is live',
      );

      // Newer data supersedes: 070200 runs after all, 2 minutes late.
      srv.bodies.set('/nyct', (_req, res) =>
        res.end(
          nyctFeed(clock.now(), [
            trip('068700', [
              { stop: '101S', departure: nyAt('11:28') },
              { stop: '127S', skipped: true },
              { stop: '142S', arrival: nyAt('12:11') },
            ]),
            trip('070200', [{ stop: '127S', departure: nyAt('12:12') }]),
          ]),
        ),
      );
      clock.advance(240_000);
      await until(() => statusOf(r).state === 'ok', 10_000, 'the feed back');
      assert.deepEqual(rows(r, q(clock.now())).rows, [
        '1|South Ferry|11:55|live|cancelled',
        '1|South Ferry|12:12|live',
        '1|South Ferry|01:17|sched',
      ]);

      // Stale again, and past the skipped train's time: it has gone.
      srv.bodies.set('/nyct', (_req, res) => {
        res.statusCode = 500;
        res.end();
      });
      const after = nyAt('11:56') - clock.now();
      clock.advance(after);
      assert.deepEqual(rows(r, q(clock.now())).rows, ['1|South Ferry|12:10|sched', '1|South Ferry|01:17|sched']);
    } finally {
      await done();
    }
  },
);

test('a board is told the moment its data passes staleAfter, not at its next minute', async () => {
  const clock = new FakeClock(NY0);
  const { srv, r, done } = await nycRig(clock, { staleAfter: '45' });
  srv.bodies.set('/nyct', nyctFeed(NY0, [trip('070200', [{ stop: '127S', departure: nyAt('12:12') }])]));
  let told = 0;
  r.feeds.onChange(() => told++);
  try {
    await loaded(r);
    srv.bodies.set('/nyct', (_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    clock.advance(30_000);
    await until(() => statusOf(r).realtime.failures === 1, 10_000, 'the failing poll');
    const before = told;
    clock.advance(14_999);
    assert.equal(told, before, 'nothing to tell within staleAfter');
    assert.equal(r.feeds.board(q(clock.now(), 45)).state, 'live');
    clock.advance(2);
    assert.equal(told, before + 1, 'told as the data passes 45 s');
    assert.equal(r.feeds.board(q(clock.now(), 45)).state, 'scheduled');
  } finally {
    await done();
  }
});
