import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/config/board-source.js';
import type { FeedsComponent } from '../../src/feeds/feeds-component.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedsRig } from './fixtures.js';

import { at, sampleFeed, scheduleZip, T0 } from './gtfs-sample.js';

const query = (now: number, extra: Partial<BoardQuery> = {}): BoardQuery => ({
  feed: 'vbb',
  stops: ['S1'],
  staleAfter: 180,
  now,
  limit: 9,
  ...extra,
});
const rows = (feeds: FeedsComponent, q: BoardQuery) => {
  const b = feeds.board(q);
  return {
    state: b.state,
    rows: b.departures.map(
      (d) =>
        `${d.route}|${d.destination}|${d.platform}|` +
        `${new Date(d.time).toISOString().slice(11, 19)}|` +
        `${d.live ? 'live' : 'sched'}${d.cancelled ? '|cancelled' : ''}`,
    ),
  };
};

test(
  'GTFS-realtime on the schedule: delays, absolute times, propagation, CANCELED, SKIPPED, NO_DATA, a service ' +
    'not running today',
  async () => {
    const { srv, clock } = await sampleFeed();
    const zip = await scheduleZip();
    const rig = await feedsRig(
      boardConfig({ vbb: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'gtfs.zip', interval: '30' } }, ['S1']),
      clock,
      { 'gtfs.zip': zip },
    );
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
      assert.equal(
        rows(rig.feeds, query(at('11:14:00'), { staleAfter: 3600 })).rows[0],
        '12|Hauptbahnhof||10:18:00|live|cancelled',
      );
      // An unknown feed has no data.
      assert.deepEqual(rig.feeds.board(query(T0, { feed: 'nope' })), { state: 'no-data', departures: [] });

      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const st = rig.feeds.status().feeds.vbb as Record<string, any>;
      assert.equal(st.state, 'ok');
      assert.equal(st.zone, 'Europe/Berlin', "agency.txt's zone");
      assert.equal(st.schedule.state, 'ok');
      assert.equal(st.schedule.trips, 10, "only the trips calling at the boards' stops are kept");
    } finally {
      await rig.stop();
      srv.close();
    }
  },
);

test(
  'GTFS-realtime times are POSIX seconds: an entity in milliseconds ' +
    'is left out and counted, not shown 50,000 years late',
  async () => {
    const { decodeTripUpdates } = await import('../../src/feeds/gtfs-rt.js');
    const { feedMessage } = await import('./fixtures.js');
    const inMs = feedMessage(
      [
        {
          id: 'x',
          tripUpdate: { trip: { tripId: 'T1' }, stopTimeUpdate: [{ stopId: 'S1', departure: { time: T0 } }] },
        },
      ],
      T0,
    );
    const read = await decodeTripUpdates(inMs, { trips: new Set(['T1']), stops: new Set() });
    assert.equal(read.trips.size, 0);
    assert.equal(read.skipped, 1);
    assert.match(read.skippedEntities[0].reason, /a departure time \d+ is not in POSIX seconds/);
    const inS = feedMessage(
      [
        {
          id: 'x',
          tripUpdate: {
            trip: { tripId: 'T1' },
            stopTimeUpdate: [{ stopId: 'S1', departure: { time: Math.floor(T0 / 1000) } }],
          },
        },
      ],
      T0,
    );
    assert.equal(
      (await decodeTripUpdates(inS, { trips: new Set(['T1']), stops: new Set() })).trips.get('T1')![0].stops[0].time,
      T0,
    );
  },
);
