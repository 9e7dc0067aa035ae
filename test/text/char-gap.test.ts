import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { area, FONT_DIR, inkColumns, rig, T0 } from '../render/helpers.js';
import { pixelFont } from './pixel-font.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mlds-sc-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// An 8 px cell whose "I" is lit in columns 1..5: the font's own spacing is 3 blank columns.
const UNIFONT = path.join(dir, 'i.bdf');
writeFileSync(UNIFONT, pixelFont());

/** Runs of ink columns in the frame, left to right: [first, last] of each. */
function runs(cols: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const c of cols) {
    const last = out.at(-1);
    if (last && c === last[1] + 1) last[1] = c;
    else out.push([c, c]);
  }
  return out;
}
const gaps = (r: Array<[number, number]>) => r.slice(1).map(([a], k) => a - r[k][1] - 1);

function draw(text: string, p: Record<string, unknown> = {}) {
  const a = area({ id: 'a', width: 192, height: 16, font: UNIFONT, fontSize: 16, markup: 'multi', ...p });
  const r = rig([a], { width: 192, height: 16 });
  r.set(a, { text, setAt: T0 });
  return r.compositor.render(T0);
}

test("[sc<n>] puts n blank columns between two glyphs of a BDF font, in place of the font's own 3", () => {
  assert.deepEqual(gaps(runs(inkColumns(draw('II'), 0, 192))), [3], "the font's own spacing without [sc]");
  for (const n of [1, 2, 6, 12]) {
    const r = runs(inkColumns(draw(`[sc${n}]II`), 0, 192));
    assert.deepEqual(gaps(r), [n], `[sc${n}]: ${JSON.stringify(r)}`);
    assert.deepEqual(
      r.map(([a, b]) => b - a + 1),
      [5, 5],
      'each glyph keeps its 5 lit columns',
    );
  }
  // [sc0]: the glyphs touch, one run of 10 columns.
  assert.deepEqual(
    runs(inkColumns(draw('[sc0]II'), 0, 192)).map(([a, b]) => b - a + 1),
    [10],
  );
});

test("[sc] holds until [/sc]: n columns before and between spaced glyphs, the font's own 3 after them", () => {
  const r = runs(inkColumns(draw('I[sc5]II[/sc]II'), 0, 192));
  assert.deepEqual(gaps(r), [5, 5, 3, 3], JSON.stringify(r));
  // The same with the spaced glyphs in another colour: the gap does not depend on the span.
  assert.deepEqual(gaps(runs(inkColumns(draw('I[cf255,0,0][sc5]II[cf][/sc]II'), 0, 192))), [5, 5, 3, 3]);
});

test("right-aligned, a spaced line ends with its last glyph's ink at the area's right edge", () => {
  assert.deepEqual(runs(inkColumns(draw('[jl4][sc4]III'), 0, 192)), [
    [169, 173],
    [178, 182],
    [187, 191],
  ]);
});

test('[sc] with a TrueType font: n blank columns between two glyphs, crisp or antialiased', () => {
  for (const antialias of ['none', 'default'] as const) {
    const ttf = { font: path.join(FONT_DIR, 'DejaVuSans.ttf'), fontSize: 14, antialias };
    for (const n of [0, 2, 7]) {
      // Antialiased: any light at all is ink, so the gap is the columns left fully dark.
      const r = runs(inkColumns(draw(`[sc${n}]HWH`, ttf), 0, 192, 0, 16, 0));
      if (n === 0) assert.equal(r.length, 1, `[sc0] ${antialias}: the glyphs touch, ${JSON.stringify(r)}`);
      else assert.deepEqual(gaps(r), [n, n], `[sc${n}] ${antialias}: ${JSON.stringify(r)}`);
    }
  }
});
