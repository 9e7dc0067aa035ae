// A departures area in a running service, fed by a small BoardSource set on its unit (the seam
// the feeds capability fills): rows drawn as a table, countdowns that change at their minute on
// the service's clock, the scheduled mark, cancelled and no-data texts, pages, /status text.
// Each board is checked pixel for pixel against a text area given the rows it should show.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardData, BoardQuery, BoardSource, Departure } from '../../src/config/board-source.js';
import type { RunningService } from '../../src/main.js';
import { renderLayoutsToPng } from '../../src/preview/render.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FakeClock } from '../helpers/clock.js';
import { REPO, decode, get, nextFrame, serviceDir, start, until, type Pixels } from '../helpers/service.js';

/** A feed as the board sees it: departures the test sets, news announced as the feeds capability does. */
class TestBoards implements BoardSource {
  private listeners = new Set<(feed: string) => void>();
  state: BoardData['state'] = 'live';
  departures: Departure[] = [];
  queries: BoardQuery[] = [];
  board(q: BoardQuery): BoardData {
    this.queries.push(q);
    if (q.feed !== 'city' || this.state === 'no-data') return { state: 'no-data', departures: [] };
    const mine = this.departures
      .filter((d) => d.time >= q.now && (!q.routes || q.routes.includes(d.route)))
      .sort((a, b) => a.time - b.time);
    return { state: this.state, departures: mine.slice(0, q.limit) };
  }
  onChange(listener: (feed: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
  news(): void {
    for (const l of this.listeners) l('city');
  }
}

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const dep = (key: string, route: string, destination: string, inMs: number, p: Partial<Departure> = {}): Departure => ({
  key,
  route,
  destination,
  platform: '',
  time: T0 + inMs,
  live: true,
  cancelled: false,
  ...p,
});

// 7x13.bdf: 7 px a character, 13 px a row. Route 3 characters, destination 12, time 6, countdown 6 right-aligned.
const COLUMNS = [{ width: '21' }, { width: '84' }, { width: '42' }, { width: '45', align: 'right' }];
const LOOK = { font: '7x13.bdf', fontColor: '255 170 0', valign: 'top' };
const BOARD = {
  coordinates: '0 0 191 38',
  type: 'departures',
  feed: 'city',
  stops: ['S1'],
  rows: '3',
  ...LOOK,
  columns: COLUMNS.map((c, i) => ({ ...c, field: ['route', 'destination', 'time', 'countdown'][i] })),
  minutesText: '{m}min',
  cancelledText: 'canc',
  scheduledMark: '~',
  overflow: 'pages',
  pageSeconds: '5',
};
/**
 * Reference columns for board columns: a right-aligned time column keeps 7 px at its right for
 * the scheduled mark (one 7x13 character), so the reference gives the mark a column of its own.
 */
const refColumns = (cols: Array<{ width: string; align?: string }>) =>
  cols.flatMap((c) => (c.align === 'right' ? [{ ...c, width: String(Number(c.width) - 7) }, { width: '7' }] : [c]));
/** A row as the reference shows it: the last cell's mark in the mark's column. */
const refRows = (rows: string) =>
  rows
    .split('\n')
    .map((r) => (r.endsWith('~') ? `${r.slice(0, -1)}\t~` : r))
    .join('\n');
// The same look as a text area below the board: what the board should show, given as a value.
const REF = {
  coordinates: '0 40 191 78',
  type: 'dynamic',
  ...LOOK,
  columns: refColumns(COLUMNS),
  overflow: 'pages',
  pageSeconds: '5',
};

interface Rig {
  svc: RunningService;
  clock: FakeClock;
  boards: TestBoards;
  close(): Promise<void>;
}

async function rig(
  board: Record<string, unknown> = BOARD,
  withSource = true,
  ref: Record<string, unknown> = REF,
  prepare?: (dir: string) => void,
): Promise<Rig> {
  const sd = serviceDir({
    effectDurationMs: '0',
    rateLimit: '100000',
    timezone: 'Europe/Berlin',
    // The board's feed must exist; nothing answers it, and the test's own source replaces it on the unit.
    feeds: { city: { type: 'siri', url: 'http://127.0.0.1:8080/sm' } },
    displays: {
      s: { displayWidth: '192', displayHeight: '80', output: { driver: 'virtual' }, layout: { l: { board, ref } } },
    },
  });
  prepare?.(sd.dir);
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock });
  const boards = new TestBoards();
  if (withSource) svc.runtime.unitFor('s')!.boards = boards;
  return {
    svc,
    clock,
    boards,
    async close() {
      await svc.close();
      sd.cleanup();
    },
  };
}

type AreaReport = Record<string, unknown>;
const areas = async (svc: RunningService) =>
  ((await get(svc, '/status')).json.displays as Array<{ areas: AreaReport[] }>)[0].areas;
let lastStatus: unknown;
const boardText = async (svc: RunningService) => {
  const a = (await areas(svc)).find((x) => x.id === 'board');
  lastStatus = a;
  return a?.text;
};
const shot = async (svc: RunningService) => decode((await get(svc, '/screenshot?id=s&format=png')).bytes);

/** Shows `ref` in the reference area and waits until /status has it. */
async function showRef(svc: RunningService, ref: string): Promise<void> {
  const seq = svc.api.frame('s')?.seq ?? -1;
  assert.equal((await get(svc, `/mlds?id=s&layout=l&ref=${encodeURIComponent(refRows(ref))}`)).status, 200);
  await nextFrame(svc, 's', seq);
}

/** The board's rows (y 0..38) are pixel for pixel the reference area's (y 40..78), and hold ink. */
function sameAsRef(p: Pixels): void {
  let ink = 0;
  for (let y = 0; y < 39; y++) {
    for (let x = 0; x < 192; x++) {
      assert.deepEqual(p.at(x, y), p.at(x, y + 40), `pixel ${x},${y} of the board differs from the reference`);
      if (p.at(x, y)[0] > 128) ink++;
    }
  }
  assert.ok(ink > 100, `the board is drawn (${ink} lit pixels)`);
}

async function until2(fn: () => Promise<boolean>, what: string): Promise<void> {
  await until(fn, 15_000, what).catch((e: Error) => {
    throw new Error(`${e.message}: /status has ${JSON.stringify(lastStatus)}`);
  });
}

test(
  'rows are drawn in their columns: live countdowns, the scheduled mark, a cancelled row with its time, times ' +
    'in the configured zone; /status gives the rows with tabs',
  async () => {
    const r = await rig();
    try {
      r.boards.departures = [
        dep('a', '12', 'Hauptbahnhof', 90_000),
        dep('b', '5', 'Zoo', 330_000, { live: false }),
        dep('c', '7', 'Messe', 600_000, { cancelled: true }),
        dep('d', '9', 'Not shown', 930_000),
      ];
      r.boards.news();
      assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
      // 12:00 UTC is 13:00 in Berlin; 90 s is 1 minute, 330 s 5 minutes.
      // The cancelled row keeps its time (13:10): passengers can tell which train it was.
      const rows = '12\tHauptbahnhof\t13:01\t1min\n5\tZoo\t13:05~\t5min~\n7\tMesse\t13:10\tcanc';
      await until2(
        async () => (await boardText(r.svc)) === `${rows}\n9\tNot shown\t13:15\t15min`,
        'the board on /status',
      );
      await showRef(r.svc, rows);
      sameAsRef(await shot(r.svc));
      assert.equal((await areas(r.svc)).find((a) => a.id === 'board')?.board, 'live');
      assert.deepEqual(r.boards.queries.at(-1) && { ...r.boards.queries.at(-1), now: 0 }, {
        feed: 'city',
        stops: ['S1'],
        routes: undefined,
        staleAfter: 180,
        now: 0,
        limit: 12,
      });
    } finally {
      await r.close();
    }
  },
);

test("a board without a time column shows a cancelled row's countdown beside cancelledText, in pixels", async () => {
  const cols = [{ width: '21' }, { width: '84' }, { width: '87', align: 'right' }];
  const board = { ...BOARD, columns: cols.map((c, i) => ({ ...c, field: ['route', 'destination', 'countdown'][i] })) };
  const r = await rig(board, true, { ...REF, columns: refColumns(cols) });
  try {
    r.boards.departures = [
      dep('a', '12', 'Hauptbahnhof', 90_000),
      dep('c', '7', 'Messe', 630_000, { cancelled: true }),
    ];
    r.boards.news();
    assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
    const rows = '12\tHauptbahnhof\t1min\n7\tMesse\t10min canc';
    await until2(async () => (await boardText(r.svc)) === rows, 'the board on /status');
    await showRef(r.svc, rows);
    sameAsRef(await shot(r.svc));
  } finally {
    await r.close();
  }
});

test(
  'a right-aligned time column hangs the scheduled mark outside its digits; a column gap and a spacer column ' +
    'leave their pixels empty',
  async () => {
    // 7x13.bdf, 7 px a character: route 0..20 and a 7 px gap, a 7 px spacer, destination from 35, time from 105,
    // countdown 147..188 right-aligned, its last 7 px kept for the mark.
    const cols = [
      { width: '21', gap: '7' },
      { width: '7' },
      { width: '70' },
      { width: '42' },
      { width: '42', align: 'right' },
    ];
    const fields = ['route', 'spacer', 'destination', 'time', 'countdown'];
    const r = await rig({ ...BOARD, columns: cols.map((c, i) => ({ ...c, field: fields[i] })) });
    try {
      r.boards.departures = [dep('a', '12', 'Hbf', 810_000), dep('b', '5', 'Zoo', 330_000, { live: false })];
      r.boards.news();
      assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
      await until2(
        async () => (await boardText(r.svc)) === '5\t\tZoo\t13:05~\t5min~\n12\t\tHbf\t13:13\t13min',
        'the board on /status',
      );
      const p = await shot(r.svc);
      const lit = (x: number, y: number) => p.at(x, y)[0] > 128;
      const xs = (row: number, x0: number, x1: number) => {
        const out: number[] = [];
        for (let x = x0; x < x1; x++)
          for (let y = row * 13; y < row * 13 + 13; y++)
            if (lit(x, y)) {
              out.push(x);
              break;
            }
        return out;
      };
      // "5min" and "13min" end on the same pixel column; only the scheduled row has ink in the mark's 7 px.
      const digitsEnd = [0, 1].map((row) => Math.max(...xs(row, 147, 182)));
      assert.equal(digitsEnd[0], digitsEnd[1], `the countdowns end at ${digitsEnd}`);
      assert.ok(xs(0, 182, 189).length > 0, 'the mark is drawn after the scheduled countdown');
      assert.deepEqual(xs(1, 182, 192), [], "the live countdown leaves the mark's room empty");
      for (const row of [0, 1]) {
        assert.deepEqual(xs(row, 21, 35), [], `row ${row + 1}: the gap and the spacer are empty`);
        assert.ok(Math.min(...xs(row, 35, 105)) < 40, `row ${row + 1}: the destination starts at 35`);
      }
    } finally {
      await r.close();
    }
  },
);

test(
  'grouped by platform the rows go in order of platform, a changed platform carries its mark; the filters and ' +
    'the walk reach the source',
  async () => {
    const cols = [{ width: '21' }, { width: '21' }, { width: '84' }, { width: '66', align: 'right' }];
    const fields = ['platform', 'route', 'destination', 'countdown'];
    const board = {
      ...BOARD,
      columns: cols.map((c, i) => ({ ...c, field: fields[i] })),
      groupBy: 'platform',
      platformChangedMark: '*',
      filters: { directions: ['0'], headsigns: ['Zoo', 'Messe'] },
      walkMinutes: '3',
    };
    const r = await rig(board, true, { ...REF, columns: refColumns(cols) });
    try {
      r.boards.departures = [
        dep('a', '12', 'Zoo', 90_000, { platform: '2' }),
        dep('b', '5', 'Zoo', 330_000, { platform: '1' }),
        dep('c', '7', 'Messe', 630_000, { platform: '10', platformChanged: true }),
        dep('d', '9', 'Zoo', 150_000),
      ];
      r.boards.news();
      assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
      const rows = '1\t5\tZoo\t5min\n2\t12\tZoo\t1min\n10*\t7\tMesse\t10min';
      await until2(async () => (await boardText(r.svc)) === `${rows}\n\t9\tZoo\t2min`, 'the board on /status');
      await showRef(r.svc, rows);
      sameAsRef(await shot(r.svc));
      const q = r.boards.queries.at(-1)!;
      assert.deepEqual(
        { directions: q.directions, headsigns: q.headsigns, walk: q.notBefore! - q.now },
        { directions: [0], headsigns: ['Zoo', 'Messe'], walk: 180_000 },
      );
    } finally {
      await r.close();
    }
  },
);

test('accessible and occupancy columns show the configured symbols, in pixels', async () => {
  const cols = [{ width: '21' }, { width: '84' }, { width: '14' }, { width: '28' }, { width: '45', align: 'right' }];
  const fields = ['route', 'destination', 'accessible', 'occupancy', 'countdown'];
  const board = {
    ...BOARD,
    columns: cols.map((c, i) => ({ ...c, field: fields[i] })),
    accessibleText: 'W',
    occupancyTexts: { FULL: 'XXX', FEW_SEATS_AVAILABLE: 'XX' },
  };
  const r = await rig(board, true, { ...REF, columns: refColumns(cols) });
  try {
    r.boards.departures = [
      dep('a', '12', 'Zoo', 90_000, { accessible: true, occupancy: 'FULL' }),
      dep('b', '5', 'Messe', 330_000, { accessible: false, occupancy: 'FEW_SEATS_AVAILABLE' }),
      dep('c', '7', 'Hbf', 630_000, { occupancy: 'EMPTY' }),
    ];
    r.boards.news();
    assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
    // EMPTY keeps its default text, "low".
    const rows = '12\tZoo\tW\tXXX\t1min\n5\tMesse\t\tXX\t5min\n7\tHbf\t\tlow\t10min';
    await until2(async () => (await boardText(r.svc)) === rows, 'the board on /status');
    await showRef(r.svc, rows);
    sameAsRef(await shot(r.svc));
  } finally {
    await r.close();
  }
});

test(
  'time cells set digits on one advance: in a font whose "1" is ' + 'narrower, "11" and "88" take the same places',
  async () => {
    // 5x7.bdf with a "1" 3 px wide instead of 5: proportional digits.
    const bdf = readFileSync(path.join(REPO, 'fonts/5x7.bdf'), 'utf8').replace(
      /(STARTCHAR one\nENCODING 49\nSWIDTH \d+ 0\n)DWIDTH 5 0/,
      '$1DWIDTH 3 0',
    );
    assert.match(bdf, /ENCODING 49\nSWIDTH \d+ 0\nDWIDTH 3 0/);
    const cols = [{ width: '20' }, { width: '60' }, { width: '50', align: 'right' }];
    const board = {
      ...BOARD,
      font: 'narrow1.bdf',
      columns: cols.map((c, i) => ({ ...c, field: ['route', 'destination', 'countdown'][i] })),
    };
    const r = await rig(board, true, REF, (dir) => {
      mkdirSync(path.join(dir, 'fonts'), { recursive: true });
      writeFileSync(path.join(dir, 'fonts/narrow1.bdf'), bdf);
    });
    try {
      r.boards.departures = [dep('a', '5', 'Zoo', 11 * 60_000 + 30_000), dep('b', '7', 'Hbf', 88 * 60_000 + 30_000)];
      r.boards.news();
      assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
      await until2(async () => (await boardText(r.svc)) === '5\tZoo\t11min\n7\tHbf\t88min', 'the board on /status');
      const p = await shot(r.svc);
      // The first lit pixel column of each countdown (x 80..129), row by row of 7 px.
      const left = (row: number) => {
        for (let x = 80; x < 130; x++) for (let y = row * 7; y < row * 7 + 7; y++) if (p.at(x, y)[0] > 128) return x;
        return -1;
      };
      // "1" is drawn centred in a 5 px advance: its ink starts 1 px right of where "8"'s does.
      assert.ok(left(0) > 0 && left(1) > 0, 'both countdowns drawn');
      assert.ok(
        Math.abs(left(0) - left(1)) <= 2,
        `the countdowns start at ${left(0)} and ${left(1)}: their digits share places`,
      );
    } finally {
      await r.close();
    }
  },
);

test(
  'a countdown changes when its minute does, on the service clock and without news; a departure whose time ' +
    'has passed leaves',
  async () => {
    const r = await rig();
    try {
      // At T0 + 3 s "Zoo" leaves and "Hauptbahnhof" (63 s away) goes from 1min to now.
      r.boards.departures = [dep('z', '5', 'Zoo', 3_000), dep('h', '12', 'Hauptbahnhof', 63_000)];
      r.boards.news();
      assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
      await until2(
        async () => (await boardText(r.svc)) === '5\tZoo\t13:00\tnow\n12\tHauptbahnhof\t13:01\t1min',
        'first board',
      );
      const unit = r.svc.runtime.unitFor('s')!;
      assert.equal(
        unit.compositor.nextChange(r.clock.now()),
        T0 + 3_001,
        'the frame loop is asked to wake when the rows change',
      );
      const queries = r.boards.queries.length;
      const seq = unit.latest().seq;
      r.clock.advance(3_500);
      // The loop wakes by itself (its timer was armed for the change): no news, no command.
      await until2(
        async () => unit.latest().seq > seq && (await boardText(r.svc)) === '12\tHauptbahnhof\t13:01\tnow',
        'the minute turned',
      );
      assert.ok(r.boards.queries.length > queries, 'the board asked its source again');
      await showRef(r.svc, '12\tHauptbahnhof\t13:01\tnow');
      sameAsRef(await shot(r.svc));
    } finally {
      await r.close();
    }
  },
);

test(
  'news from the source redraws the board at once; a stale feed shows the marked schedule; no departures ' +
    'shows noDeparturesText; no data shows noDataText, and so does a unit without a source; /status says which',
  async () => {
    const r = await rig({ ...BOARD, noDataText: 'No live data' });
    try {
      r.boards.departures = [dep('a', '12', 'Hauptbahnhof', 150_000)];
      r.boards.news();
      assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
      await until2(async () => (await boardText(r.svc)) === '12\tHauptbahnhof\t13:02\t2min', 'first board');
      r.boards.departures = [dep('a', '12', 'Hauptbahnhof', 150_000), dep('b', 'S3', 'Flughafen', 170_000)];
      r.boards.news();
      await until2(
        async () => (await boardText(r.svc)) === '12\tHauptbahnhof\t13:02\t2min\nS3\tFlughafen\t13:02\t2min',
        'news drawn',
      );
      // The realtime feed went stale: the source gives the schedule, every time marked.
      r.boards.state = 'scheduled';
      r.boards.departures = [dep('a', '12', 'Hauptbahnhof', 150_000, { live: false })];
      r.boards.news();
      await until2(async () => (await boardText(r.svc)) === '12\tHauptbahnhof\t13:02~\t2min~', 'scheduled');
      assert.equal((await areas(r.svc)).find((a) => a.id === 'board')?.board, 'scheduled');
      // The feed answers with nothing to show: the board says so, not the rows of nothing.
      r.boards.state = 'live';
      r.boards.departures = [];
      r.boards.news();
      await until2(async () => (await boardText(r.svc)) === 'No departures', 'no departures');
      r.boards.state = 'no-data';
      r.boards.news();
      await until2(async () => (await boardText(r.svc)) === 'No live data', 'no data');
      assert.equal((await areas(r.svc)).find((a) => a.id === 'board')?.board, 'no-data');
      const p = await shot(r.svc);
      // The text is not a table row: it runs across the columns (a first cell of 21 px would cut it).
      let ink = 0;
      for (let y = 0; y < 13; y++) for (let x = 21; x < 192; x++) if (p.at(x, y)[0] > 128) ink++;
      assert.ok(ink > 50, 'noDataText drawn across the area');
    } finally {
      await r.close();
    }
    const bare = await rig(BOARD, false);
    try {
      assert.equal((await get(bare.svc, '/mlds?id=s&layout=l')).status, 200);
      await until2(async () => (await boardText(bare.svc)) === 'No live data', 'no source: no data');
    } finally {
      await bare.close();
    }
  },
);

test('more departures than rows page every pageSeconds under overflow "pages"', async () => {
  const r = await rig({ ...BOARD, rows: '2' });
  try {
    r.boards.departures = [1, 2, 3, 4, 5].map((i) => dep(`k${i}`, String(i), `Stop ${i}`, i * 600_000 + 30_000));
    r.boards.news();
    assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
    const all = [1, 2, 3, 4, 5].map((i) => `${i}\tStop ${i}\t13:${String(i * 10).padStart(2, '0')}\t${i * 10}min`);
    await until2(async () => (await boardText(r.svc)) === all.join('\n'), 'five rows on /status');
    const unit = r.svc.runtime.unitFor('s')!;
    // The reference pages the same way, from the same moment.
    await showRef(r.svc, `${all[0]}\n${all[1]}`);
    sameAsRef(await shot(r.svc));
    const at = r.clock.now();
    const change = unit.compositor.nextChange(at);
    assert.ok(change > at && change <= at + 5_000, `the next page is due within pageSeconds (in ${change - at} ms)`);
    const seq = unit.latest().seq;
    await get(r.svc, `/mlds?id=s&layout=l&ref=${encodeURIComponent(refRows(`${all[2]}\n${all[3]}`))}`);
    await until2(async () => unit.latest().seq > seq, 'reference redrawn');
    r.clock.advance(5_000);
    await until2(async () => {
      const p = await shot(r.svc);
      for (let y = 0; y < 26; y++)
        for (let x = 0; x < 192; x++) if (p.at(x, y).join() !== p.at(x, y + 40).join()) return false;
      return true;
    }, 'second page: rows 3 and 4');
  } finally {
    await r.close();
  }
});

test('a departures area takes no value: 400 MLDS_BAD_VALUE naming it; empty clears it', async () => {
  const r = await rig();
  try {
    const bad = await get(r.svc, '/mlds?id=s&layout=l&board=hello');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'MLDS_BAD_VALUE');
    assert.match(JSON.stringify(bad.json), /\\"board\\" is a departures area/);
    assert.equal((await get(r.svc, '/mlds?id=s&layout=l&board=')).status, 200);
    await until2(async () => (await areas(r.svc)).find((a) => a.id === 'board')?.source === 'none', 'cleared');
  } finally {
    await r.close();
  }
});

test("/status gives what the unit's own board drew, whatever a preview of its configuration drew", async () => {
  const r = await rig({ ...BOARD, noDataText: 'No live data' });
  try {
    r.boards.departures = [dep('a', '12', 'Hauptbahnhof', 150_000)];
    r.boards.news();
    assert.equal((await get(r.svc, '/mlds?id=s&layout=l')).status, 200);
    await until2(async () => (await boardText(r.svc)) === '12\tHauptbahnhof\t13:02\t2min', "the unit's board");
    // `mlds test`'s pictures of the running configuration, its boards from a source with nothing.
    const empty = new TestBoards();
    empty.state = 'no-data';
    const previews = await renderLayoutsToPng(r.svc.runtime.config, empty);
    assert.equal(previews.length, 1);
    // The unit drew nothing since (the fake clock stands still, no news): /status is still its board.
    const board = (await areas(r.svc)).find((a) => a.id === 'board');
    const rows = '12\tHauptbahnhof\t13:02\t2min';
    assert.deepEqual({ text: board?.text, board: board?.board }, { text: rows, board: 'live' });
  } finally {
    await r.close();
  }
});
