// Sign text in columns: each tab-separated cell in its own column, aligned there, cut at the
// column's edge; a tab without columns is refused. Pixels from the service's PNG screenshot.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { configFaults } from '../helpers/config-faults.js';
import { get } from '../helpers/service.js';
import { sign, type Sign } from './sign-service.js';
import type { Pixels } from '../helpers/service.js';

// 7x13.bdf: every character 7 px wide, rows 13 px tall. Columns: route 0..29, destination
// 30..141 (16 characters), countdown 142..191 right-aligned.
const COLUMNS = [{ width: '30' }, { width: '112', align: 'left' }, { width: '50', align: 'right' }];
const ROWS = ['12\tHauptbahnhof\t7 min', '5\tZoo\t12 min', '101\tFlughafen Terminal 1\t1 min'];

let s: Sign;
before(async () => {
  s = await sign({
    board: {
      coordinates: '0 0 191 47',
      type: 'text',
      font: '7x13.bdf',
      fontColor: '255 170 0',
      columns: COLUMNS,
      valign: 'top',
    },
    plain: { coordinates: '0 0 191 47', type: 'text', font: '7x13.bdf' },
  });
});
after(async () => {
  await s?.close();
});

const lit = (p: Pixels, x: number, y: number) => p.at(x, y)[0] > 128;

/** The rows of the picture holding ink, as bands [top, bottom] of consecutive rows. */
function bands(p: Pixels): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let y = 0; y < p.height; y++) {
    let ink = false;
    for (let x = 0; x < p.width && !ink; x++) ink = lit(p, x, y);
    if (!ink) continue;
    const last = out[out.length - 1];
    if (last && last[1] === y - 1) last[1] = y;
    else out.push([y, y]);
  }
  return out;
}

/** Lit columns in [x0, x1) within a band. */
function inkXs(p: Pixels, [top, bottom]: [number, number], x0: number, x1: number): number[] {
  const xs: number[] = [];
  for (let x = x0; x < x1; x++)
    for (let y = top; y <= bottom; y++)
      if (lit(p, x, y)) {
        xs.push(x);
        break;
      }
  return xs;
}

const boardStatus = async () =>
  ((await get(s.svc, '/status')).json.displays as Array<{ areas: Array<Record<string, unknown>> }>)[0].areas.find(
    (a) => a.id === 'board',
  )!;

test(
  "a right-aligned column's cells share their right edge, a left column's cells their left edge, and a " +
    'too-wide cell stops at its column',
  async () => {
    assert.equal((await s.show(`board=${encodeURIComponent(ROWS.join('\n'))}`)).status, 200);
    const p = await s.shot();
    const rows = bands(p);
    assert.equal(rows.length, 3, `three rows of ink, found ${JSON.stringify(rows)}`);

    // Countdowns "7 min", "12 min", "1 min" end in the same glyph: the same rightmost lit column.
    const rightEdges = rows.map((r) => Math.max(...inkXs(p, r, 142, 192)));
    assert.equal(new Set(rightEdges).size, 1, `right edges ${rightEdges}`);
    assert.ok(rightEdges[0] >= 185, `right edge ${rightEdges[0]} at the column's end`);
    // Their left edges differ: "12 min" starts one 7 px character left of "1 min".
    const countLefts = rows.map((r) => Math.min(...inkXs(p, r, 142, 192)));
    assert.equal(countLefts[2] - countLefts[1], 7, `left edges of the countdowns ${countLefts}`);

    // Destinations "Hauptbahnhof", "Zoo", "Flughafen..." start at the column's left edge (a glyph's left bearing of 0
    // or
    // 1 px).
    const destLefts = rows.map((r) => Math.min(...inkXs(p, r, 30, 142)));
    for (const x of destLefts) assert.ok(x >= 30 && x <= 31, `destination starts at ${x}, not at the column's edge 30`);

    // Routes share column 0's left edge.
    const routeLefts = rows.map((r) => Math.min(...inkXs(p, r, 0, 30)));
    for (const x of routeLefts) assert.ok(x <= 1, `route starts at ${x}`);

    // Row 3: "Flughafen Terminal 1" is 140 px in a 112 px column: it is cut at the column's edge,
    // nothing of it in the countdown column before " 1 min" (which starts at 191 - 35 + 1).
    const third = inkXs(p, rows[2], 30, 192);
    assert.ok(
      third.some((x) => x >= 130 && x < 142),
      'the destination fills its column',
    );
    assert.deepEqual(inkXs(p, rows[2], 142, 157), [], 'nothing of the destination spills into the next column');
    const st = await boardStatus();
    assert.deepEqual([st.fit, st.clippedPx], ['clipped', 28]);
  },
);

test('fit "shrink" draws a table at the largest size whose cells all fit their columns', async () => {
  const t = await sign(
    {
      board: {
        coordinates: '0 0 191 31',
        type: 'text',
        fontSize: '16',
        columns: [{ width: '40' }, { width: '152', align: 'right' }],
        fit: 'shrink',
        minFontSize: '6',
        valign: 'top',
        antialias: 'none',
      },
    },
    192,
    32,
  );
  try {
    assert.equal(
      (await t.show(`board=${encodeURIComponent('S1\tAirport Terminal 1 via Central Station')}`)).status,
      200,
    );
    const st = ((await get(t.svc, '/status')).json.displays as Array<{ areas: Array<Record<string, unknown>> }>)[0]
      .areas[0];
    assert.equal(st.fit, 'shrunk');
    assert.ok((st.fontSizeUsed as number) < 16, `drawn at ${String(st.fontSizeUsed)}`);
    const p = await t.shot();
    const ink = inkXs(p, [0, 31], 40, 192);
    assert.ok(
      ink.length > 0 && Math.min(...ink) >= 40 && Math.max(...ink) <= 191,
      'the wide cell fits inside its column',
    );
  } finally {
    await t.close();
  }
});

test(
  'without columns a tab is refused: 400 MLDS_BAD_VALUE ' + 'naming the area, and the sign keeps what it showed',
  async () => {
    assert.equal((await s.show('plain=before')).status, 200);
    const shown = await s.shot();
    const r = await s.show(`plain=${encodeURIComponent('7\tZoo')}`);
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'MLDS_BAD_VALUE');
    assert.match(JSON.stringify(r.json), /\\"plain\\": the value has a tab/);
    const now = await s.shot();
    for (let x = 0; x < 192; x += 7) for (let y = 0; y < 48; y += 5) assert.deepEqual(now.at(x, y), shown.at(x, y));
  },
);

test(
  'a tab in a defaultValue or static params of an area without columns, and columns wider than their area, ' +
    'are faults naming the field',
  () => {
    const faults = configFaults((c) => {
      const layout = (c.displays as Record<string, { layout: Record<string, Record<string, unknown>> }>)[
        Object.keys(c.displays)[0]
      ].layout;
      const areas = layout[Object.keys(layout)[0]];
      areas.tabbed = { coordinates: '0 0 63 15', type: 'text', defaultValue: 'a\tb' };
      areas.keyed = { coordinates: '0 0 63 15', type: 'static', params: { x: 'a\tb' } };
      areas.wide = { coordinates: '0 0 63 15', type: 'text', columns: [{ width: '40' }, { width: '30' }] };
      // 30 + 20 px of columns fit 64 px; their 20 px gap does not.
      areas.gapped = { coordinates: '0 0 63 15', type: 'text', columns: [{ width: '30', gap: '20' }, { width: '20' }] };
    });
    const at = (end: string) => faults.find((f) => f.path.endsWith(end))?.message;
    assert.match(at('/tabbed/defaultValue') ?? '', /has a tab/);
    assert.match(at('/keyed/params/x') ?? '', /has a tab/);
    assert.match(at('/wide/columns') ?? '', /70 px wide together, the area 64 px/);
    assert.match(at('/gapped/columns') ?? '', /70 px wide together, the area 64 px/);
  },
);

test('with a cell cache, laying a table out again measures only the cells whose text changed', async () => {
  const { layoutBlock } = await import('../../src/text/layout.js');
  const { measuredUnits } = await import('../../src/text/faces.js');
  const { FONT_DIR } = await import('../render/helpers.js');
  const path = await import('node:path');
  const cellCache = new Map();
  const doc = (rows: string[]) => ({
    pages: [{ lines: rows.map((t) => ({ spans: [{ text: t, font: 0 }] })) }],
    multi: false,
  });
  const o = {
    width: 192,
    height: 52,
    font: path.join(FONT_DIR, '7x13.bdf'),
    fonts: [],
    fontSize: 13,
    wrap: false,
    valign: 'top' as const,
    align: 'left' as const,
    overflow: 'pages' as const,
    pageMs: 3000,
    crisp: true,
    color: { r: 255, g: 255, b: 255 },
    rtl: false,
    graphicSize: () => undefined,
    columns: [
      { width: 30, align: 'left' as const },
      { width: 112, align: 'left' as const },
      { width: 50, align: 'right' as const },
    ],
    cellCache,
  };
  const rows = [
    '12\tHauptbahnhof\t7 min',
    '5\tZoo\t12 min',
    '101\tFlughafen Terminal 1\t1 min',
    '7\tMesse Nord\t20 min',
  ];
  const cost = (r: string[]) => {
    const before = measuredUnits();
    const l = layoutBlock(doc(r), o);
    return { units: measuredUnits() - before, l };
  };
  const first = cost(rows);
  assert.ok(first.units > 0);
  const again = cost(rows);
  assert.equal(again.units, 0, 'the same rows: nothing measured');
  assert.deepEqual(
    again.l.pages[0].lines.map((l) => l.width),
    first.l.pages[0].lines.map((l) => l.width),
  );
  // Every countdown changes (a minute tick): only the four countdown cells are measured again.
  const ticked = [
    '12\tHauptbahnhof\t6 min',
    '5\tZoo\t11 min',
    '101\tFlughafen Terminal 1\tnow',
    '7\tMesse Nord\t19 min',
  ];
  const tick = cost(ticked);
  assert.ok(
    tick.units > 0 && tick.units * 3 <= first.units,
    `a minute tick: ${tick.units} units against ${first.units} for the whole board`,
  );
});

test("departures columns need a field, a text area's columns take none", () => {
  const faults = configFaults((c) => {
    const layout = (c.displays as Record<string, { layout: Record<string, Record<string, unknown>> }>)[
      Object.keys(c.displays)[0]
    ].layout;
    const areas = layout[Object.keys(layout)[0]];
    areas.board = {
      coordinates: '0 0 63 15',
      type: 'departures',
      feed: 'f',
      stops: ['1'],
      columns: [{ width: '30', field: 'route' }, { width: '30' }],
    };
    areas.plain = { coordinates: '0 0 63 15', type: 'text', columns: [{ width: '30', field: 'route' }] };
    areas.nofeed = {
      coordinates: '0 0 63 15',
      type: 'departures',
      stops: ['1'],
      columns: [{ width: '30', field: 'route' }],
    };
    areas.twice = {
      coordinates: '0 0 63 15',
      type: 'departures',
      feed: 'f',
      stops: ['1'],
      routes: ['1'],
      filters: { routes: ['2'] },
      columns: [{ width: '30', field: 'route' }],
    };
    areas.badfilter = {
      coordinates: '0 0 63 15',
      type: 'departures',
      feed: 'f',
      stops: ['1'],
      filters: { directions: ['2'], lines: ['x'] },
      walkMinutes: '500',
      groupBy: 'route',
      columns: [{ width: '30', field: 'route' }],
    };
  });
  const at = (end: string) =>
    faults
      .filter((f) => f.path.endsWith(end))
      .map((f) => f.message)
      .join(' | ');
  assert.match(at('/board/columns/1'), /needs a field/);
  assert.match(at('/plain/columns/0/field'), /applies only to departures areas/);
  assert.match(at('/nofeed'), /needs "feed"/);
  assert.match(at('/twice/routes'), /is the same as filters.routes: give one of them/);
  for (const f of [
    '/badfilter/filters/directions/0',
    '/badfilter/filters/lines',
    '/badfilter/walkMinutes',
    '/badfilter/groupBy',
  ])
    assert.notEqual(at(f), '', `a fault at ${f}`);
});
