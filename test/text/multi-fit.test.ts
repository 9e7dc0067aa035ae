import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { get, type Pixels } from '../helpers/service.js';
import { sign, type Sign } from './sign-service.js';
import path from 'node:path';
import { multiFitFault } from '../../src/config/area-types/multi-fit.js';
import type { TextArea } from '../../src/config/types.js';
import { area, FONT_DIR } from '../render/helpers.js';

const AREA = { coordinates: '0 0 191 31', type: 'text', font: '7x13.bdf', fontSize: '13', markup: 'multi' };
let s: Sign;
before(async () => {
  s = await sign(
    {
      d: AREA,
      // The same area shrinking to the 5x7 font when a page does not fit at 13 px.
      k: { ...AREA, coordinates: '0 0 191 31', fit: 'shrink', fonts: ['5x7.bdf'], minFontSize: '7' },
      // A plain-text area: a value too wide still scrolls, as before.
      p: { coordinates: '0 0 191 31', type: 'text', font: '7x13.bdf', fontSize: '13' },
    },
    192,
    32,
  );
});
after(() => s.close());

const show = (area: string, multi: string, extra = '') => s.show(`${area}=${encodeURIComponent(multi)}${extra}`);
const lit = (p: Pixels) => {
  const xs: number[] = [],
    ys: number[] = [];
  for (let y = 0; y < p.height; y++)
    for (let x = 0; x < p.width; x++)
      if (p.at(x, y).some((c) => c > 0)) {
        xs.push(x);
        ys.push(y);
      }
  return { n: xs.length, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
};
const refused = (r: { status: number; json: Record<string, unknown> }, start: RegExp) => {
  assert.equal(r.status, 400, JSON.stringify(r.json));
  assert.equal(r.json.code, 'MLDS_BAD_VALUE');
  assert.match(String(r.json.message), start);
};

test(
  'a page too wide for the area is refused with 400 naming ' + 'the area and the page, and the sign keeps its text',
  async () => {
    assert.equal((await show('d', '[jl2]12 Hauptbahnhof[jl4]7 min')).status, 200);
    const shown = await s.shot();
    // Parts that would overlap: 25 characters of 7 px (175) and 6 more (42) need 217 px.
    refused(
      await show('d', '[jl2]12 Hauptbahnhof Nordseite[jl4]17 min'),
      /^"d": page 1 of the MULTI text does not fit the area \(192x32 px\) at fontSize 13: a line is 217 px wide$/,
    );
    refused(
      await show('d', 'Gleis 2[np]Ersatzverkehr zwischen Hauptbahnhof und Flughafen'),
      /^"d": page 2 of the MULTI text does not fit .*: a line is \d+ px wide$/,
    );
    refused(
      await show('d', 'A[nl]B[nl]C'),
      /^"d": page 1 of the MULTI text does not fit the area \(192x32 px\) at fontSize 13: its 3 lines are 39 px tall$/,
    );
    assert.deepEqual(lit(await s.shot()), lit(shown), 'nothing on screen changed');
  },
);

test('fontSize[area] counts wherever it stands in the query: a page that fits at 13 px is refused at 26', async () => {
  refused(
    await show('d', '12 Hauptbahnhof', '&fontSize%5Bd%5D=26'),
    /^"d": page 1 of the MULTI text does not fit the area \(192x32 px\) at fontSize 26: a line is 210 px wide$/,
  );
  const r = await s.show(`fontSize%5Bd%5D=26&d=${encodeURIComponent('12 Hauptbahnhof')}`);
  assert.equal(r.status, 400);
  assert.equal((await show('d', 'Gleis 2', '&fontSize%5Bd%5D=26')).status, 200);
});

test(
  'with fit "shrink" a page that does not fit at 13 px is drawn in the smaller font; one that fits no size is ' +
    'refused',
  async () => {
    assert.equal((await show('k', '[jl2]12 Hauptbahnhof Nordseite[jl4]17 min')).status, 200);
    const st = await get(s.svc, '/status');
    const k = (
      st.json.displays as Array<{ areas: Array<{ id: string; fit?: string; fontSizeUsed?: number }> }>
    )[0].areas.find((a) => a.id === 'k');
    assert.deepEqual([k?.fit, k?.fontSizeUsed], ['shrunk', 7], 'reported on /status');
    const p = lit(await s.shot());
    assert.ok(p.y1 - p.y0 < 8, `drawn in the 5x7 font: rows ${p.y0}..${p.y1}`);
    assert.ok(p.x0 <= 1 && p.x1 >= 189, `parts at both edges: ${p.x0}..${p.x1}`);
    refused(
      await show('k', 'Ersatzverkehr zwischen Hauptbahnhof und Flughafen Terminal 2'),
      /^"k": page 1 of the MULTI text does not fit the area \(192x32 px\) at fontSize 13 nor shrunk down to fontSize 7: a line is \d+ px wide$/,
    );
  },
);

test('a plain-text area still scrolls a value too wide for it', async () => {
  assert.equal((await show('p', '12 Hauptbahnhof Nordseite via Zentrum')).status, 200);
});

test('multiFitFault: a table (an area with columns) keeps its own rule, cells shortened and reported', () => {
  const a = area({
    id: 't',
    width: 192,
    height: 32,
    font: path.join(FONT_DIR, '7x13.bdf'),
    fontSize: 13,
    markup: 'multi',
  });
  const wide = '12 Hauptbahnhof Nordseite via Zentrum';
  assert.match(multiFitFault(a, wide, 13) ?? '', /^page 1 of the MULTI text does not fit/);
  const table = {
    ...a,
    columns: [
      { width: 150, align: 'left' },
      { width: 42, align: 'right' },
    ],
  } as TextArea;
  assert.equal(multiFitFault(table, wide, 13), undefined);
});
