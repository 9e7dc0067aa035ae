import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { AreaConfig } from '../../src/config/types.js';
import { createCanvas } from 'canvas';
import { signTextContent } from '../../src/render/content/sign-text.js';
import { layoutBlock, layoutRuns } from '../../src/text/layout.js';
import { vectorFace } from '../../src/text/faces.js';
import { parseMulti } from '../../src/text/multi.js';
import { areaBlock } from '../../src/config/area-types/area-block.js';
import { area, FONT_DIR, rig, T0 } from '../render/helpers.js';
import { emulated } from '../helpers/emulation.js';

test('layout happens once per value and size, never per frame', () => {
  const scroll = area({ id: 's', width: 192, height: 24, font: path.join(FONT_DIR, '7x13.bdf'), fontSize: 13 });
  const pages = area({
    id: 'p',
    y: 24,
    width: 192,
    height: 24,
    fontSize: 14,
    wrap: true,
    overflow: 'pages',
    pageSeconds: 1,
  });
  const r = rig([scroll, pages], { width: 192, height: 48 });
  r.set(scroll, { text: 'Lotnisko Chopina - Airport, Terminal A, przez Centrum', setAt: T0 });
  r.set(pages, { text: 'Dworzec Centralny - Central Station - Warszawa Zachodnia - Okecie', setAt: T0 });
  const before = layoutRuns();
  let frames = 0,
    last = -1;
  for (let t = T0; t < T0 + 10_000; t += 20) {
    const f = r.compositor.render(t);
    if (f.seq !== last) frames++;
    last = f.seq;
  }
  assert.ok(frames > 300, `${frames} frames drawn`);
  assert.equal(layoutRuns() - before, 2, 'one layout per area');
  r.set(pages, { text: 'Kasa nieczynna', setAt: T0 + 10_000, fontSize: 20 });
  for (let t = T0 + 10_000; t < T0 + 12_000; t += 20) r.compositor.render(t);
  assert.equal(layoutRuns() - before, 3, 'a new value is laid out once');
});

/** Lays out and draws `text` once in a 192x48 wrapped, paged area; fails past 3 s. Returns how it fitted. */
function firstFrame(p: Partial<AreaConfig>, text: string): { fit: string; size: number } {
  const a = area({ id: 'w', width: 192, height: 48, wrap: true, overflow: 'pages', ...p });
  const r = rig([a], { width: 192, height: 48 });
  r.set(a, { text, setAt: T0 });
  const t = performance.now();
  r.compositor.render(T0);
  const ms = performance.now() - t;
  // Emulated (qemu-user) code runs 10-20 times slower: 6 s there is no pathological layout.
  assert.ok(ms < (emulated ? 30_000 : 3000), `${ms.toFixed(0)} ms`);
  return r.compositor.textFits()[0];
}

test('a 4096-character word in a wrapped area is laid out in bounded time', () => {
  assert.equal(firstFrame({ fontSize: 14 }, 'W'.repeat(4096)).fit, 'paged');
});

test('fit shrink with wrap on a 4096-character value stays bounded (sizes that cannot fit are not wrapped)', () => {
  const fit = firstFrame({ fontSize: 40, fit: 'shrink', minFontSize: 8 }, 'Lotnisko Chopina '.repeat(240));
  assert.deepEqual([fit.fit, fit.size], ['paged', 40]);
});

test("only the lines on show hold pixels: paging through 1000 lines keeps a page's worth", () => {
  const a = area({
    id: 'm',
    width: 192,
    height: 48,
    fontSize: 13,
    font: path.join(FONT_DIR, '7x13.bdf'),
    overflow: 'pages',
    pageSeconds: 0.1,
  });
  const text = Array.from({ length: 1000 }, (_, i) => `Line ${i}`).join('\n');
  const block = signTextContent({ area: a, text, size: 13, color: a.fontColor, pxPerSecond: 120, origin: T0 });
  const ctx = createCanvas(192, 48).getContext('2d');
  let most = 0;
  for (let t = T0; t < T0 + 40_000; t += 100) {
    block.draw(ctx, 0, 0, t);
    most = Math.max(most, block.heldTiles);
  }
  assert.equal(block.textFit.fit, 'paged');
  assert.ok(most <= 6, `${most} tiles held at most`);
});

test('a scrolling pixel-font line damages only its own rows, worked out once for every frame', () => {
  const a = area({ id: 's', width: 192, height: 48, font: path.join(FONT_DIR, '7x13.bdf'), fontSize: 13 });
  const block = signTextContent({
    area: a,
    text: 'Lotnisko Chopina - Airport, Terminal A, przez Centrum',
    size: 13,
    color: a.fontColor,
    pxPerSecond: 60,
    origin: T0,
  });
  assert.ok(block.scrolls);
  const rows = block.rows();
  assert.equal(block.rows(), rows, 'the same answer every frame: nothing made per frame');
  assert.ok(rows.h >= 13 && rows.h < 48 && rows.y > 0, `rows ${rows.y}+${rows.h} of 48`);
  const r = rig([a], { width: 192, height: 48 });
  r.set(a, { text: 'Lotnisko Chopina - Airport, Terminal A, przez Centrum', setAt: T0 });
  let partial = 0;
  for (let t = T0; t < T0 + 2000; t += 20) {
    const f = r.compositor.render(t);
    const rects = f.damage?.rects ?? [];
    if (rects.length === 1 && rects[0].h < 48) {
      partial++;
      assert.equal(rects[0].w, 192);
      assert.ok(rects[0].h <= 26, `damage ${rects[0].y}+${rects[0].h}`);
    }
  }
  assert.ok(partial > 50, `${partial} frames damaged the line's rows only`);
});

test("a face's line box is asked of pango once: a value checked, then laid out to draw, reuses its faces", () => {
  const font = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');
  const a = vectorFace(font, 39, false);
  assert.equal(vectorFace(font, 39, false), a, 'the same font, size and crispness is the same face');
  assert.notEqual(vectorFace(font, 39, true), a);
  assert.equal(vectorFace(font, 39, true).crisp, true);
  assert.notEqual(vectorFace(undefined, 39, false), a);
  assert.equal(vectorFace(undefined, 39, false).file, undefined);
  assert.notEqual(vectorFace(font, 40, false), a);
  const d = area({ id: 'd', width: 432, height: 100, font, wrap: true });
  const o = {
    ...areaBlock(d, 'x', 39),
    overflow: 'pages' as const,
    pageMs: 3000,
    color: { r: 255, g: 170, b: 0 },
    graphicSize: () => undefined,
  };
  const faces = (text: string) =>
    layoutBlock(parseMulti(text, { fonts: 0, graphics: 0 }), o).pages.flatMap((p) =>
      p.lines.flatMap((l) => l.pieces.map((x) => ('face' in x ? x.face : undefined))),
    );
  const first = faces('Destination number 0[np]via Centrum'),
    again = faces('Destination number 1[np]via Centrum');
  assert.ok(first.length >= 2 && first.every((f) => f === first[0]), 'one face for the whole value');
  assert.equal(again[0], first[0], 'and the same one for the next value');
});
