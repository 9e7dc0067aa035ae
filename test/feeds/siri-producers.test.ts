// SIRI as producers serve it, over HTTP on loopback into the feeds component: Entur's Norwegian
// profile and the CEN example (siri-shapes.ts). What a passenger cannot board is no departure;
// a stop given only on the delivery and times without an offset still make a board; a quay
// change shows the new platform, marked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/config/board-source.js';
import type { FeedsComponent } from '../../src/feeds/feeds-component.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig } from './fixtures.js';
import { cenSm, enturEt, primJson } from './siri-shapes.js';

const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
const q = (feed: string, stop: string): BoardQuery => ({ feed, stops: [stop], staleAfter: 120, now: T0, limit: 10 });
/** route|destination|platform (* changed)|minutes from T0|live */
const rows = (feeds: FeedsComponent, query: BoardQuery) => {
  const b = feeds.board(query);
  return [
    b.state,
    ...b.departures.map(
      (d) =>
        `${d.route}|${d.destination}|${d.platform}${d.platformChanged ? '*' : ''}|+${(d.time - T0) / 60_000}|${d.live ? 'live' : 'sched'}`,
    ),
  ];
};

async function rig(feeds: Record<string, Record<string, unknown>>, bodies: Record<string, string>) {
  const srv = await feedServer();
  for (const [p, b] of Object.entries(bodies)) srv.bodies.set(p, b);
  const withUrls = Object.fromEntries(
    Object.entries(feeds).map(([id, f]) => [id, { type: 'siri', interval: '30', ...f, url: srv.url(String(f.url)) }]),
  );
  const r = await feedsRig(boardConfig(withUrls, ['x']), new FakeClock(T0));
  await until(
    () => Object.keys(feeds).every((id) => r.feeds.feed(id)?.rt.data !== undefined),
    10_000,
    "every feed's first poll",
  );
  return {
    feeds: r.feeds,
    srv,
    stop: async () => {
      await r.stop();
      srv.close();
    },
  };
}

test(
  "SIRI: an arrival-only call, a journey's last stop, noBoarding and " +
    'noService are not departures (Entur ET, CEN SM)',
  async () => {
    const r = await rig(
      { et: { url: '/et' }, sm: { url: '/sm' } },
      { '/et': enturEt(T0), '/sm': cenSm(T0, { offsets: true, stopOnVisit: true }) },
    );
    try {
      // Oslo S: L1 ends there (arrival times only, DestinationRef); R10 departs.
      assert.deepEqual(rows(r.feeds, q('et', 'NSR:Quay:OSLOS-9')), ['live', 'R10|Drammen|9|+3|live']);
      // 124 ends here (DestinationRef), 125 sets down only, 126 is noService.
      assert.deepEqual(
        rows(r.feeds, q('sm', 'HLTST011')).map((x) => x.split('|')[0]),
        ['live', '123', '127'],
      );
    } finally {
      await r.stop();
    }
  },
);

test(
  "SIRI: a stop given only on the delivery, times without an offset read in the feed's timezone; unreadable " +
    'times are a problem',
  async () => {
    const broken = cenSm(T0).replace(/(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)/g, '$3.$2.$1 $4');
    const r = await rig(
      { oslo: { url: '/sm', timezone: 'Europe/Oslo' }, bad: { url: '/bad', timezone: 'Europe/Oslo' } },
      { '/sm': cenSm(T0), '/bad': broken },
    );
    try {
      // The producer writes Oslo's wall clock (11:04 for 10:04 UTC) with no offset.
      assert.deepEqual(rows(r.feeds, q('oslo', 'HLTST011')), [
        'live',
        '123|Paradise Park|B*|+4|live',
        '127|Hospital|C|+11|live',
      ]);
      assert.deepEqual(
        r.feeds.problems().filter((p) => p.message.includes('"oslo"')),
        [],
      );
      // Times no zone can read: the board is blank, and /status says why.
      assert.deepEqual(rows(r.feeds, q('bad', 'HLTST011')), ['live']);
      const problem = r.feeds.problems().find((p) => p.message.includes('"bad"'));
      assert.match(problem?.message ?? '', /SIRI time\(s\) cannot be read.*AimedDepartureTime "28\.11\.2026 11:04:00"/);
      assert.equal(
        (r.feeds.status().feeds as Record<string, { unreadTimes?: { count: number } }>).bad.unreadTimes?.count,
        2 * 3,
        'the three times of each of the two departures',
      );
    } finally {
      await r.stop();
    }
  },
);

test(
  'SIRI: a quay change shows the new platform, marked changed (Entur ' +
    'stop assignment, planned vs expected by name)',
  async () => {
    const r = await rig(
      { et: { url: '/et' }, sm: { url: '/sm' } },
      { '/et': enturEt(T0), '/sm': cenSm(T0, { offsets: true, stopOnVisit: true }) },
    );
    try {
      // L1 was planned at quay NTH-1 and now calls at NTH-2 (platform 2); R10 keeps its quay.
      assert.deepEqual(rows(r.feeds, q('et', 'NSR:Quay:NTH-2')), [
        'live',
        'L1|Oslo S|2*|+6|live',
        'R10|Drammen|2|+7|live',
      ]);
      // 123 planned at A, now leaves from B; 127 planned and given C.
      assert.deepEqual(rows(r.feeds, q('sm', 'HLTST011')), [
        'live',
        '123|Paradise Park|B*|+4|live',
        '127|Hospital|C|+11|live',
      ]);
    } finally {
      await r.stop();
    }
  },
);

test(
  "SIRI occupancy (the call's Occupancy, SIRI 2.1's ExpectedDepartureOccupancy, the journey's; SIRI-Lite " +
    "JSON too) is the departure's occupancy, under GTFS-realtime's names, while the data is fresh",
  async () => {
    const r = await rig(
      { et: { url: '/et' }, sm: { url: '/sm' }, prim: { url: '/prim' } },
      { '/et': enturEt(T0), '/sm': cenSm(T0, { offsets: true, stopOnVisit: true }), '/prim': primJson(T0) },
    );
    const occupancy = (query: BoardQuery) =>
      r.feeds.board(query).departures.map((d) => `${d.route}|${d.occupancy ?? '-'}`);
    try {
      // L1's call says standing room (SIRI 2.0 standingAvailable); R10's journey says seats (seatsAvailable).
      assert.deepEqual(occupancy(q('et', 'NSR:Quay:NTH-2')), ['L1|STANDING_ROOM_ONLY', 'R10|MANY_SEATS_AVAILABLE']);
      // 123's journey is full; 127's journey is full but its call, leaving here, has a few seats (the call wins).
      assert.deepEqual(occupancy(q('sm', 'HLTST011')), ['123|FULL', '127|FEW_SEATS_AVAILABLE']);
      // PRIM's JSON: manySeatsAvailable, and unknown (nothing said).
      assert.deepEqual(occupancy(q('prim', 'STIF:StopPoint:Q:473921:')), [
        'STIF:Line::C01742:|MANY_SEATS_AVAILABLE',
        'STIF:Line::C01742:|-',
      ]);
      // Stale: the aimed times stay, what the vehicles' load was does not.
      const later = { ...q('sm', 'HLTST011'), now: T0 + 200_000 };
      assert.deepEqual(occupancy({ ...later, staleAfter: 120 }), ['123|-', '127|-']);
    } finally {
      await r.stop();
    }
  },
);
