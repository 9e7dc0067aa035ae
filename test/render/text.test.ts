import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCanvas } from 'canvas';
import type { Frame } from '../../src/output/types.js';
import { SCROLL_SPEED_PX_PER_S } from '../../src/render/content/scroll.js';
import { cssFont } from '../../src/text/fonts.js';
import { area, inkColumns, inkRows, px, rig, T0 } from './helpers.js';

const LONG = 'The quick brown fox jumps over the lazy dog 0123456789 The quick brown fox jumps over the lazy dog';

function textWidth(text: string, size: number): number {
  const ctx = createCanvas(1, 1).getContext('2d');
  ctx.font = cssFont(size, undefined);
  return ctx.measureText(text).width;
}

/** Frame b equals frame a moved left by dx px, over every pixel both show. */
function shiftedLeft(a: Frame, b: Frame, dx: number): boolean {
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x + dx < a.width; x++) {
      const i = (y * a.width + x) * 4;
      const j = (y * a.width + x + dx) * 4;
      if (b.data[i] !== a.data[j] || b.data[i + 1] !== a.data[j + 1] || b.data[i + 2] !== a.data[j + 2]) return false;
    }
  }
  return true;
}

test('scroll offset at t and t+1 s follows the speed table for every scrollSpeed', () => {
  for (let speed = 0; speed <= 8; speed++) {
    const v = SCROLL_SPEED_PX_PER_S[speed];
    const a = area({ id: 'a', scrollSpeed: speed });
    const r = rig([a]);
    r.set(a, { text: LONG, setAt: T0 });
    const f1 = r.compositor.render(T0 + 1000);
    const f2 = r.compositor.render(T0 + 2000);
    // After 1 s the head has travelled v px from the right edge (plus its glyph's left bearing).
    const head = inkColumns(f1, 0, 640)[0];
    assert.ok(head >= 640 - v && head <= 640 - v + 8, `speed ${speed}: head at ${head}, expected ~${640 - v}`);
    assert.ok(shiftedLeft(f1, f2, v), `speed ${speed}: t+1 s is not the frame at t moved ${v} px left`);
    assert.ok(!shiftedLeft(f1, f2, v + 1) && !shiftedLeft(f1, f2, v - 1), `speed ${speed}: shift is not exact`);
  }
});

test('a late frame shows the position for its time, not a slower scroll', () => {
  const a = area({ id: 'a', scrollSpeed: 4 });
  const r = rig([a]);
  r.set(a, { text: LONG, setAt: T0 });
  const direct = r.compositor.render(T0 + 1500);
  const r2 = rig([a]);
  r2.set(a, { text: LONG, setAt: T0 });
  for (let t = T0; t <= T0 + 1000; t += 20) r2.compositor.render(t);
  // 500 ms without a frame, then one frame: same picture as a loop that never stalled.
  assert.deepEqual(r2.compositor.render(T0 + 1500).data, direct.data);
});

/** Width of the dark run between two copies of the text, scanning left to right. */
function gapBetweenCopies(headToTail: number): number {
  const text = 'MMMMMMMMMMMM';
  const w = textWidth(text, 64);
  assert.ok(w > 640, 'the text must be wider than the area to scroll');
  const a = area({ id: 'a', headToTail, scrollSpeed: 0 });
  const r = rig([a]);
  r.set(a, { text, setAt: T0 });
  // Distance travelled = period + 100 px: copy 0 is leaving on the left, copy 1 entered 100 px ago.
  const period = Math.round(w + (headToTail ? textWidth(' '.repeat(headToTail), 64) : 0));
  const f = r.compositor.render(T0 + ((period + 100) * 1000) / 480);
  const cols = inkColumns(f, 0, 640);
  let best = 0;
  for (let i = 1; i < cols.length; i++) best = Math.max(best, cols[i] - cols[i - 1] - 1);
  return best;
}

test('headToTail puts that many spaces of the area font between tail and next head', () => {
  const space = textWidth(' ', 64);
  const g0 = gapBetweenCopies(0);
  for (const n of [3, 6]) {
    const gn = gapBetweenCopies(n);
    assert.ok(Math.abs(gn - g0 - n * space) <= 1.5, `headToTail ${n}: gap ${gn} vs ${g0} + ${n} x ${space}`);
  }
});

test('fit versus scroll at the boundary: exactly as wide as the area fits, one pixel narrower scrolls', () => {
  const text = 'Boundary case';
  const w = Math.ceil(textWidth(text, 64));
  const fits = area({ id: 'a', width: w, align: 'left' });
  const r = rig([fits]);
  r.set(fits, { text, setAt: T0 });
  const f = r.compositor.render(T0);
  assert.ok(inkColumns(f, 0, w).length > w / 2, 'fitting text shows at once');
  assert.equal(r.compositor.nextChange(T0), Infinity, 'fitting text is static');
  assert.equal(r.compositor.render(T0 + 5000).seq, f.seq);

  const narrow = area({ id: 'a', width: w - 1 });
  const r2 = rig([narrow]);
  r2.set(narrow, { text, setAt: T0 });
  assert.equal(inkColumns(r2.compositor.render(T0), 0, 640).length, 0, 'scrolling text enters from the right edge');
  assert.ok(r2.compositor.nextChange(T0) < T0 + 100);
  const later = inkColumns(r2.compositor.render(T0 + 1000), 0, 640);
  assert.ok(later.length > 0 && later[0] >= w - 1 - 120 && later[0] <= w - 1 - 120 + 8);
});

test('align places fitting text left, centre or right', () => {
  const centres: Record<string, number> = {};
  for (const align of ['left', 'center', 'right'] as const) {
    const a = area({ id: 'a', align });
    const r = rig([a]);
    r.set(a, { text: 'HELLO', setAt: T0 });
    const cols = inkColumns(r.compositor.render(T0), 0, 640);
    centres[align] = (cols[0] + cols[cols.length - 1]) / 2;
    if (align === 'left') assert.ok(cols[0] < 10);
    if (align === 'right') assert.ok(cols[cols.length - 1] > 630);
  }
  assert.ok(Math.abs(centres.center - 320) <= 2, `centre at ${centres.center}`);
});

test('text is vertically centred in its area', () => {
  const rows = (height: number, text: string) => {
    const a = area({ id: 'a', y: 0, height, align: 'center' });
    const r = rig([a]);
    r.set(a, { text, setAt: T0 });
    return inkRows(r.compositor.render(T0), 0, 640, 0, height);
  };
  for (const text of ['Hg', 'HELLO', '12', 'ace', 'Žluťoučký']) {
    for (const height of [100, 160]) {
      const ink = rows(height, text);
      const top = ink[0];
      const bottom = height - 1 - ink[ink.length - 1];
      assert.ok(Math.abs(top - bottom) <= 2, `${text} in ${height} px: margins ${top} / ${bottom}`);
    }
  }
});

test('fontColor and fontSize per request recolour and re-layout (a bigger font starts to scroll)', () => {
  const a = area({ id: 'a', align: 'center', fontSize: 40 });
  const r = rig([a]);
  r.set(a, { text: 'Platform 12', setAt: T0 });
  const base = r.compositor.render(T0);
  assert.equal(r.compositor.nextChange(T0), Infinity);
  r.set(a, { text: 'Platform 12', setAt: T0 + 10, fontColor: { r: 0, g: 255, b: 0 } });
  const green = r.compositor.render(T0 + 10);
  const cols = inkColumns(base, 0, 640);
  let greenPx = 0;
  for (let y = 0; y < 160; y++)
    for (const x of cols) {
      const [R, G] = px(green, x, y);
      if (G > 200 && R < 50) greenPx++;
    }
  assert.ok(greenPx > 50, 'text drawn in the requested colour');
  r.set(a, { text: 'Platform 12', setAt: T0 + 20, fontSize: 150 });
  r.compositor.render(T0 + 20);
  assert.ok(r.compositor.nextChange(T0 + 20) < T0 + 100, '150 px text no longer fits and scrolls');
});

test('textFromStart true restarts from the right edge; false continues from the current offset', () => {
  for (const fromStart of [true, false]) {
    const a = area({ id: 'a', textFromStart: fromStart, scrollSpeed: 4 });
    const r = rig([a]);
    r.set(a, { text: LONG, setAt: T0 });
    r.compositor.render(T0 + 1000);
    r.set(a, { text: LONG.toUpperCase(), setAt: T0 + 2000 });
    const cols = inkColumns(r.compositor.render(T0 + 2000), 0, 640);
    if (fromStart) assert.equal(cols.length, 0, 'new text starts at the right edge');
    else assert.ok(cols[0] >= 640 - 240 && cols[0] <= 640 - 240 + 8, `continues at ${cols[0]}`);
  }
});

test('dynamic areas swap text in place: no effect, no reset', () => {
  const a = area({ id: 'a', type: 'dynamic', dispEffect: 2, clearEffect: 2, scrollSpeed: 4 });
  const r = rig([a]);
  r.set(a, { text: LONG, setAt: T0 });
  r.compositor.render(T0 + 3000);
  r.set(a, { text: LONG.replace('fox', 'cat'), setAt: T0 + 3000 });
  const f = r.compositor.render(T0 + 3000);
  const head = inkColumns(f, 0, 640)[0];
  // 3 s at 120 px/s: the head is 360 px in, at full brightness (no fade restarting).
  assert.ok(head >= 280 && head <= 288, `head at ${head}`);
  assert.ok(Math.max(...Array.from({ length: 160 }, (_, y) => px(f, head + 2, y)[0])) > 240);
});

test('Latin with diacritics, Cyrillic and Greek come out as glyphs, not boxes', () => {
  const glyph = (ch: string) => {
    const c = createCanvas(80, 80);
    const ctx = c.getContext('2d');
    ctx.font = cssFont(60, undefined);
    ctx.fillStyle = '#fff';
    ctx.fillText(ch, 5, 65);
    return c.toBuffer('raw').toString('base64');
  };
  // U+E000 is a private-use code point no font here covers: it draws as the box.
  const box = glyph('\uE000');
  for (const ch of 'ŽůťčéßøąłőЖЯщΩλβέ') assert.notEqual(glyph(ch), box, `${ch} is drawn as a box`);
});
