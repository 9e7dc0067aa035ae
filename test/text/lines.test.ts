import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { AreaConfig } from '../../src/config/types.js';
import type { Frame } from '../../src/output/types.js';
import { area, FONT_DIR, inkColumns, inkRows, lit, rig, T0 } from '../render/helpers.js';

const F7 = path.join(FONT_DIR, '7x13.bdf');
const amber = { r: 255, g: 170, b: 0 };

function show(a: AreaConfig, text: string, w = 192, h = 48) {
  const r = rig([a], { width: w, height: h });
  r.set(a, { text, setAt: T0 });
  return r;
}
const sign = (p: Partial<AreaConfig>) =>
  area({ id: 'a', width: 192, height: 48, font: F7, fontSize: 13, fontColor: amber, ...p });

test('a line feed starts a new line: two full lines, one above the other, none cut', () => {
  const a = sign({ height: 28 });
  const f = show(a, 'Dworzec\nGłówny').compositor.render(T0);
  // 2 x 13 px lines in 28 px, middle: the block starts at row 1.
  const rows = inkRows(f, 0, 192, 0, 28);
  assert.ok(rows[0] >= 1 && rows[rows.length - 1] <= 27, `rows ${rows[0]}..${rows[rows.length - 1]}`);
  const single = (t: string) => lit(show(sign({ height: 28 }), t).compositor.render(T0), 0, 0, 192, 28);
  assert.equal(lit(f, 0, 0, 192, 14), single('Dworzec'), 'first line whole in the top half');
  assert.equal(lit(f, 0, 14, 192, 14), single('Główny'), 'second line whole in the bottom half');
});

test('valign top/bottom and lineSpacing put the lines on exact rows', () => {
  const top = inkRows(show(sign({ valign: 'top' }), 'H\nH').compositor.render(T0), 0, 192);
  const bottom = inkRows(show(sign({ valign: 'bottom', lineSpacing: 4 }), 'H\nH').compositor.render(T0), 0, 192);
  // 7x13's H: 9 rows of ink from the 3rd row of its 13-row box.
  assert.equal(top[0], 2);
  assert.equal(top[top.length - 1], 13 + 10);
  assert.equal(bottom[bottom.length - 1], 48 - 13 + 10);
  assert.equal(bottom[0], 48 - 13 - 4 - 13 + 2);
});

test('align applies per line: right-aligned lines each end at the right edge', () => {
  const f = show(sign({ align: 'right' }), 'AAAA\nA').compositor.render(T0);
  const right = (y0: number, y1: number) => {
    const c = inkColumns(f, 0, 192, y0, y1);
    return c[c.length - 1];
  };
  assert.equal(right(0, 24), right(24, 48));
  assert.ok(right(0, 24) >= 186, `line ends at ${right(0, 24)}`);
});

/** Lit pixels over every page of an area showing pages. */
function litOverPages(a: AreaConfig, text: string, pages: number): number {
  const r = show(a, text);
  let n = 0;
  for (let i = 0; i < pages; i++) n += lit(r.compositor.render(T0 + i * 3000 + 1), 0, 0, a.width, a.height);
  return n;
}

test('wrap breaks at word boundaries at the area width; the lines never cut a glyph', () => {
  const text = 'Lotnisko Chopina Airport Terminal A';
  const a = sign({ width: 96, wrap: true, overflow: 'pages' });
  const r = show(a, text, 96);
  const f = r.compositor.render(T0);
  for (const y of [0, 47])
    for (let x = 0; x < 96; x++) assert.equal(f.data[(y * 96 + x) * 4], 0, 'no ink on the area edge rows');
  // Every letter shows in full on some page: the lit pixels of all pages add up to the text's.
  const whole = lit(show(sign({ width: 1000 }), text, 1000).compositor.render(T0), 0, 0, 1000, 48);
  assert.equal(litOverPages(a, text, 2), whole);
  assert.equal(r.compositor.textFits()[0].fit, 'paged');
});

test('a word wider than the area is cut between characters, still whole glyphs', () => {
  const a = sign({ width: 40, wrap: true, overflow: 'pages' });
  const text = 'ABCDEFGHIJ';
  const whole = lit(show(sign({ width: 1000 }), text, 1000).compositor.render(T0), 0, 0, 1000, 48);
  const r = show(a, text, 40);
  assert.equal(lit(r.compositor.render(T0), 0, 0, 40, 48), whole);
  assert.equal(r.compositor.textFits()[0].fit, 'wrapped');
});

test('pages alternate at pageSeconds in a loop', () => {
  const a = sign({ height: 13, overflow: 'pages', pageSeconds: 2 });
  const r = show(a, 'ONE\nTWO', 192, 13);
  const one = r.compositor.render(T0).data.slice();
  const two = show(sign({ height: 13 }), 'TWO', 192, 13).compositor.render(T0).data;
  assert.deepEqual(r.compositor.render(T0 + 1999).data, one);
  assert.deepEqual(r.compositor.render(T0 + 2000).data, two);
  assert.equal(r.compositor.nextChange(T0 + 2000), T0 + 4000);
  assert.deepEqual(r.compositor.render(T0 + 4000).data, one);
});

test('scroll-up moves the lines up through the area at scrollSpeed', () => {
  const a = sign({ height: 13, overflow: 'scroll-up', scrollSpeed: 8 });
  const r = show(a, 'ONE\nTWO\nTHREE', 192, 13);
  assert.equal(lit(r.compositor.render(T0), 0, 0, 192, 13), 0, 'enters from the bottom');
  const rowsAt = (ms: number): number[] => inkRows(r.compositor.render(T0 + ms), 0, 192);
  // 30 px/s: after 400 ms the first line's top is 12 px up from the bottom edge.
  const a1 = rowsAt(400),
    a2 = rowsAt(500);
  assert.equal(a1[0] - 3, a2[0], 'three rows up in 100 ms');
});

test('fit shrink: "17" at fontSize 30 in a 40x40 box shows both digits, still', () => {
  const bold = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');
  const a = area({ id: 'a', width: 40, height: 40, font: bold, fontSize: 30, fit: 'shrink', align: 'center' });
  const r = show(a, '17', 40, 40);
  const f: Frame = r.compositor.render(T0);
  const cols = inkColumns(f, 0, 40);
  assert.ok(cols[0] > 0 && cols[cols.length - 1] < 39, `ink ${cols[0]}..${cols[cols.length - 1]} inside the box`);
  assert.equal(r.compositor.nextChange(T0), Infinity, 'still');
  const fit = r.compositor.textFits()[0];
  assert.equal(fit.fit, 'shrunk');
  assert.ok(fit.size < 30 && fit.size >= 15, `size ${fit.size}`);
  // Without fit it scrolls.
  const plain = show(area({ id: 'a', width: 40, height: 40, font: bold, fontSize: 30 }), '17', 40, 40);
  plain.compositor.render(T0);
  assert.ok(plain.compositor.nextChange(T0) < Infinity);
});

test('fit shrink of a bitmap font steps down to the smaller BDF fonts of `fonts`', () => {
  const a = sign({
    width: 30,
    height: 20,
    fit: 'shrink',
    fonts: [path.join(FONT_DIR, '5x7.bdf'), path.join(FONT_DIR, '6x10.bdf')],
  });
  const r = show(a, 'ABCDE', 30, 20);
  r.compositor.render(T0);
  assert.deepEqual(r.compositor.textFits()[0], { display: 'd1', area: 'a', fit: 'shrunk', size: 10 });
});

test('one line whose font box is taller than the area still stands still when it fits the width', () => {
  const a = area({ id: 'a', width: 192, height: 16, fontSize: 15, antialias: 'none' });
  const r = show(a, 'Linia 175', 192, 16);
  r.compositor.render(T0);
  assert.equal(r.compositor.nextChange(T0), Infinity);
  assert.equal(r.compositor.textFits()[0].fit, 'as-is');
});
