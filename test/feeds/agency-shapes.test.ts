// Departure boards on a schedule shaped like a real agency's (agency-shapes.ts): what a
// passenger on the platform can board, and when.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { BoardData, BoardQuery } from '../../src/config/board-source.js';
import { gtfsBoard } from '../../src/feeds/board.js';
import { decodeTripUpdates } from '../../src/feeds/gtfs-rt.js';
import type { Schedule } from '../../src/feeds/schedule.js';
import { ScheduleReader } from '../../src/feeds/schedule-reader.js';
import type { RtData, TripRt } from '../../src/feeds/model.js';
import { fri, FRI_2100, SUN_0150, subway, subwayZip } from './agency-shapes.js';
import { boardConfig, feedMessage, rt } from './fixtures.js';
import type { DeparturesConfig } from '../../src/config/types.js';
import type { ConfigFault } from '../../src/config/faults.js';
import { normalize } from '../../src/config/normalize.js';
import { boardRows } from '../../src/render/content/departure-rows.js';

const ZONE = 'America/New_York';
let dir: string;
let file: string;
const reader = new ScheduleReader();

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mlds-agency-'));
  await subwayZip(dir);
  file = path.join(dir, 'subway.zip');
});
after(async () => {
  await reader.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The schedule as the service reads it (in its thread, packed across) for the boards' stops `wanted`. */
const read = (wanted: string[]): Promise<Schedule> => reader.read(file, wanted, 2 ** 30);
const board = (schedule: Schedule, stops: string[], now: number, extra: Partial<BoardQuery> = {}): BoardData =>
  gtfsBoard({ feed: 'mta', stops, staleAfter: 180, now, limit: 6, ...extra }, { schedule, zone: ZONE, fresh: false });
const hhmm = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' }).format(ms);
const shown = (b: BoardData) => b.departures.map((d) => `${d.route} ${d.destination} ${hhmm(d.time)}`);

test(
  'a station board shows every platform whose parent_station it is, ' + 'though another board names one of them',
  async () => {
    // One board on station 127, another on its southbound platform 127S.
    const s = await read(['127', '127S']);
    assert.deepEqual(shown(board(s, ['127'], FRI_2100)).slice(0, 2), [
      '1 South Ferry 21:20',
      '1 Van Cortlandt Park-242 St 21:23',
    ]);
    assert.deepEqual(shown(board(s, ['127S'], FRI_2100)).slice(0, 1), ['1 South Ferry 21:20']);
  },
);

/** Realtime data as the decoder keeps it: `trips` updates, fresh at `now`. */
const rtData = (now: number, trips: TripRt[]): RtData => ({
  timestamp: now,
  trips: new Map(trips.map((t) => [t.tripId, [t]])),
  skipped: 0,
  skippedEntities: [],
});
const live = (schedule: Schedule, stops: string[], now: number, rt: RtData): BoardData =>
  gtfsBoard({ feed: 'mta', stops, staleAfter: 180, now, limit: 6 }, { schedule, zone: ZONE, rt, fresh: true });

test(
  'a trip ending at the stop, and a call where passengers only get off (pickup_type 1), are not departures, ' +
    'with realtime data too',
  async () => {
    const s = await read(['127', '127S', 'LGA-C']);
    // The short turn ends at Times Sq at 21:30: the next train a passenger can board leaves at 21:40.
    assert.deepEqual(shown(board(s, ['127'], fri('21:25'))).slice(0, 1), ['1 South Ferry 21:40']);
    // The M60-SBS sets down at Terminal C at 21:11 towards the airport; passengers board there towards 125 St.
    assert.deepEqual(shown(board(s, ['LGA-C'], FRI_2100)), ['M60-SBS 125 St 21:09']);
    // Realtime updates for those calls (a delay, an absolute time) do not bring them back.
    const rt = rtData(FRI_2100, [
      {
        tripId: '1-S-2128',
        cancelled: false,
        deleted: false,
        stops: [{ stopId: '127S', time: fri('21:33'), skipped: false, noData: false }],
      },
      {
        tripId: 'M60-LGA',
        cancelled: false,
        deleted: false,
        stops: [{ stopSequence: 10, delay: 120, skipped: false, noData: false }],
      },
    ]);
    assert.deepEqual(shown(live(s, ['127'], fri('21:25'), rt)).slice(0, 1), ['1 South Ferry 21:40']);
    assert.deepEqual(shown(live(s, ['127S'], fri('21:25'), rt)).slice(0, 1), ['1 South Ferry 21:40']);
    assert.deepEqual(shown(live(s, ['LGA-C'], FRI_2100, rt)), ['M60-SBS 125 St 21:09']);
  },
);

test(
  'blank times of stops that are not timepoints are filled in between the timed stops: by ' +
    'shape_dist_traveled, else evenly',
  async () => {
    const s = await read(['M15-B', 'M15-C', '127']);
    // 21:00 at 0 m, 21:30 at 6000 m: 1000 m is 21:05, 4000 m 21:20. The 21:40 has no distances: 21:50, 22:00.
    assert.deepEqual(shown(board(s, ['M15-B'], FRI_2100)), ['M15 South Ferry 21:05', 'M15 South Ferry 21:50']);
    assert.deepEqual(shown(board(s, ['M15-C'], FRI_2100)), ['M15 South Ferry 21:20', 'M15 South Ferry 22:00']);
    // Saturday's 26:10 and 26:30 around a blank Times Sq: 26:20, on the night the clocks go forward 03:20 EDT.
    const night = board(s, ['127'], SUN_0150).departures[0];
    assert.equal(new Date(night.time).toISOString(), '2026-03-08T07:20:00.000Z');
    assert.equal(hhmm(night.time), '03:20');
  },
);

test(
  'frequency-based trips run at their headway from start_time to end_time (exact_times 0 and 1), across the ' +
    'night the clocks change',
  async () => {
    const s = await read(['901', '902']);
    // Every 3 minutes from Times Sq (exact_times 0); the runs arriving from Grand Central end here.
    const ts = ['21:00', '21:03', '21:06', '21:09', '21:12', '21:15'].map((t) => `S Grand Central-42 St ${t}`);
    assert.deepEqual(shown(board(s, ['902'], FRI_2100)), ts);
    // From Grand Central (exact_times 1).
    assert.deepEqual(shown(board(s, ['901'], fri('21:01'))).slice(0, 2), [
      'S Times Sq-42 St 21:03',
      'S Times Sq-42 St 21:06',
    ]);
    // The last run starts before end_time (24:00); then Saturday's night runs, every 20 minutes from 24:00.
    const late = board(s, ['902'], fri('23:55'))
      .departures.slice(0, 3)
      .map((d) => new Date(d.time).toISOString());
    assert.deepEqual(late, ['2026-03-07T04:57:00.000Z', '2026-03-08T05:00:00.000Z', '2026-03-08T05:20:00.000Z']);
    // 26:00 on the night the clocks go forward is 03:00 EDT.
    assert.deepEqual(
      shown(board(s, ['902'], SUN_0150)).slice(0, 3),
      ['03:00', '03:20', '03:40'].map((t) => `S Grand Central-42 St ${t}`),
    );
  },
);

test('a TripUpdate for a frequency-based trip with start_time applies to that run alone', async () => {
  const s = await read(['902']);
  const msg = feedMessage(
    [
      {
        id: 'u1',
        tripUpdate: {
          trip: { tripId: 'GS-GC', startTime: '21:03:00', startDate: '20260306' },
          stopTimeUpdate: [{ stopSequence: 10, departure: { delay: 120 } }],
        },
      },
      // Without start_time no run of a frequency-based trip is meant.
      {
        id: 'u2',
        tripUpdate: { trip: { tripId: 'GS-GC' }, stopTimeUpdate: [{ stopSequence: 10, departure: { delay: 600 } }] },
      },
    ],
    FRI_2100,
  );
  const rt = await decodeTripUpdates(msg, { trips: new Set(s.trips.keys()), stops: new Set() });
  const b = live(s, ['902'], FRI_2100, rt);
  assert.deepEqual(
    b.departures.slice(0, 4).map((d) => `${hhmm(d.time)} ${d.live ? 'live' : 'sched'}`),
    ['21:00 sched', '21:05 live', '21:06 sched', '21:09 sched'],
  );
});

/** A departures area showing the route and time, with `timezone` when given. */
const area = (timezone?: string): DeparturesConfig => ({
  feed: 'mta',
  stops: [],
  fields: ['route', 'time'],
  nowText: 'now',
  minutesText: '{m} min',
  scheduledMark: '~',
  cancelledText: 'cancelled',
  platformChangedMark: '!',
  accessibleText: 'A',
  occupancyTexts: {},
  noDataText: '-',
  noDeparturesText: '-',
  staleAfter: 180,
  announceText: '',
  alertPriority: 5,
  ...(timezone ? { timezone } : {}),
});

test(
  "time cells are told in the agency's zone, a stop's stop_timezone where it has one, unless the area's " +
    'timezone says otherwise',
  async () => {
    const s = await read(['127', 'CHI']);
    // The unit runs in UTC; the 21:20 at Times Sq is 02:20 UTC.
    const times = (stops: string[], b: DeparturesConfig) =>
      boardRows(b, board(s, stops, FRI_2100), FRI_2100, 'UTC', 1).rows[0];
    assert.deepEqual(times(['127'], area()), ['1', '21:20~']);
    // Chicago Union Station's platform has its station's stop_timezone: 33:45 New York time is 08:45 in Chicago.
    assert.deepEqual(times(['CHI'], area()), ['LSL', '08:45~']);
    assert.deepEqual(times(['127'], area('UTC')), ['1', '02:20~']);
    assert.deepEqual(times(['CHI'], area('Europe/London')), ['LSL', '14:45~']);
    // An area's timezone is an IANA zone name.
    const faults: ConfigFault[] = [];
    normalize(
      boardConfig({ mta: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu' } }, ['127'], {}, { timezone: 'Eastern' }),
      dir,
      faults,
    );
    assert.deepEqual(
      faults.map((f) => f.path),
      ['/displays/stop1/layout/board/deps/timezone'],
    );
  },
);

test(
  "an accessible cell combines the trip's wheelchair_accessible with its stop's wheelchair_boarding, a platform " +
    "without a value taking its station's",
  async () => {
    const t = subway();
    // Station 127 has step-free access, but not to its southbound platform (its lift is out); 126 has none at all.
    const access: Record<string, number> = { '127': 1, '127S': 2, '126': 2 };
    t['stops.txt'] = t['stops.txt'].map((r, i) => [...r, i === 0 ? 'wheelchair_boarding' : (access[r[0]] ?? '')]);
    // Every 1 train takes a wheelchair but the 21:38, which does not say.
    t['trips.txt'] = t['trips.txt'].map((r, i) => [
      ...r,
      i === 0 ? 'wheelchair_accessible' : r[2] === '1-S-2138' ? '' : 1,
    ]);
    const own = mkdtempSync(path.join(tmpdir(), 'mlds-access-'));
    const r = new ScheduleReader();
    try {
      await subwayZip(own, t);
      const s = await r.read(path.join(own, 'subway.zip'), ['127', '126S'], 2 ** 30);
      const access = (stops: string[], now = FRI_2100) =>
        board(s, stops, now).departures.map((d) => `${d.key.split('/')[0]} ${d.accessible ?? '-'}`);
      // At 127S the lift is out: no train is accessible there; 127N has its station's step-free access.
      assert.deepEqual(access(['127']).slice(0, 4), [
        '1-S-2118 false',
        '1-N-2121 true',
        '1-S-2138 false',
        '1-S-NIGHT false',
      ]);
      // 126S has no value of its own, and its station has no step-free access: nor has the train there.
      assert.deepEqual(access(['126S'], fri('21:00')).slice(0, 1), ['1-S-2118 false']);
      const cells = boardRows(
        { ...area(), fields: ['route', 'accessible', 'time'] },
        board(s, ['127'], FRI_2100),
        FRI_2100,
        ZONE,
        2,
      ).rows;
      assert.deepEqual(cells, [
        ['1', '', '21:20~'],
        ['1', 'A', '21:23~'],
      ]);
    } finally {
      await r.close();
      rmSync(own, { recursive: true, force: true });
    }
  },
);

test(
  "a VehiclePosition in the TripUpdates feed gives its run's occupancy (a frequency-based trip's by start_time); " +
    'one that does not say its occupancy gives none',
  async () => {
    const s = await read(['902', '127']);
    const OS = rt.VehiclePosition.OccupancyStatus;
    const msg = feedMessage(
      [
        {
          id: 'v-gs',
          vehicle: {
            trip: { tripId: 'GS-GC', startTime: '21:03:00', startDate: '20260306' },
            occupancyStatus: OS.FULL,
          },
        },
        { id: 'v-1', vehicle: { trip: { tripId: '1-S-2118', startDate: '20260306' }, vehicle: { id: '1234' } } },
      ],
      FRI_2100,
    );
    const data = await decodeTripUpdates(msg, { trips: new Set(s.trips.keys()), stops: new Set() });
    const occupancy = (stops: string[]) =>
      live(s, stops, FRI_2100, data)
        .departures.slice(0, 3)
        .map((d) => `${hhmm(d.time)} ${d.occupancy ?? '-'}`);
    assert.deepEqual(occupancy(['902']), ['21:00 -', '21:03 FULL', '21:06 -']);
    assert.deepEqual(occupancy(['127']).slice(0, 1), ['21:20 -']);
  },
);
