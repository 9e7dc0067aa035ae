// Scratch canvases: a narrow rectangle is drawn on a canvas of its own width (so the read-back
// copies what changed, not whole rows of the unit), and frames drawn that way equal frames
// drawn from scratch on the full-width strips.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { GifWriter } from 'omggif';
import type { DisplayState } from '../../src/control/state.js';
import { Compositor } from '../../src/render/compositor.js';
import { preloadImage } from '../../src/render/images.js';
import { ScratchCanvases, STRIP_ROWS } from '../../src/render/scratch.js';
import { area, FONT_DIR, px, T0, soleDisplay } from './helpers.js';

let gif = '';
before(async () => {
  // 300x500, three frames of stripes whose colours move, 70 ms apart.
  const w = 300,
    h = 500,
    buf = Buffer.alloc(600_000);
  const gw = new GifWriter(buf, w, h, { palette: [0x000000, 0xff0000, 0x00ff00, 0x0000ff], loop: 0 });
  for (let f = 0; f < 3; f++)
    gw.addFrame(
      0,
      0,
      w,
      h,
      Array.from({ length: w * h }, (_, i) => 1 + ((Math.floor(i / w / 50) + f) % 3)),
      { delay: 7 },
    );
  gif = path.join(mkdtempSync(path.join(tmpdir(), 'mlds-scratch-')), 'tall.gif');
  writeFileSync(gif, buf.subarray(0, gw.end()));
  await preloadImage(gif);
});

test('a wide rectangle takes the strip canvas, a narrow one a canvas of its width, kept and capped', () => {
  const s = new ScratchCanvases(1920, 1080);
  assert.equal(s.bytes, 0, 'no canvas before anything is drawn');
  const ticker = s.for({ x: 0, y: 880, w: 1920, h: 120 });
  const stripBytes = s.bytes;
  assert.equal(stripBytes, 1920 * STRIP_ROWS * 4);
  assert.equal(ticker.canvas.width, 1920);
  assert.equal(ticker.x, 0);
  // Half the strip's width and all its rows is still the strip: the copy would waste no more than half.
  assert.equal(s.for({ x: 0, y: 0, w: 960, h: 200 }), ticker);
  const gifRect = s.for({ x: 10, y: 560, w: 400, h: 320 });
  assert.deepEqual([gifRect.canvas.width, gifRect.canvas.height, gifRect.x], [400, 320, 10]);
  assert.equal(s.for({ x: 700, y: 20, w: 400, h: 320 }), gifRect, 'a rectangle of the same size reuses the canvas');
  assert.equal(gifRect.x, 700);
  // Taller than the strip's pixels allow: as many rows as fit, drawn in strips.
  const tall = s.for({ x: 0, y: 0, w: 300, h: 1080 });
  assert.deepEqual([tall.canvas.width, tall.canvas.height], [300, Math.floor((1920 * STRIP_ROWS) / 300)]);
  for (let i = 0; i < 10; i++) s.for({ x: 0, y: 0, w: 20 + i, h: 20 });
  assert.ok(s.bytes <= stripBytes * 4, `at most three fitted canvases, none bigger than the strip (${s.bytes} bytes)`);
});

test('frames with a tall narrow GIF drawn on its own canvas in strips equal full redraws', () => {
  const W = 800,
    H = 600;
  const areas = [
    area({ id: 'anim', type: 'image', x: 40, y: 50, width: 300, height: 500 }),
    area({
      id: 'ticker',
      x: 0,
      y: 540,
      width: W,
      height: 60,
      fontSize: 40,
      backgroundColor: { r: 0, g: 0, b: 90, a: 1 },
    }),
    area({
      id: 'badge',
      type: 'static',
      x: 300,
      y: 200,
      width: 120,
      height: 60,
      fontSize: 30,
      backgroundColor: { r: 200, g: 0, b: 0, a: 0.5 },
    }),
  ];
  const { display, unit } = soleDisplay(W, H, { main: areas });
  const state: DisplayState = { id: 'd1', layout: 'main', layoutSetAt: T0, areas: new Map(), version: 1 };
  state.areas.set('anim', { area: areas[0], source: 'request', file: gif, setAt: T0 });
  state.areas.set('ticker', {
    area: areas[1],
    source: 'request',
    text: 'A ticker that scrolls under a tall animated picture',
    setAt: T0,
  });
  state.areas.set('badge', { area: areas[2], source: 'request', text: 'NEW', setAt: T0 });
  const incremental = new Compositor(unit, [display], () => state, { fontDirs: [FONT_DIR] });
  const colours = new Set<string>();
  for (let t = T0; t <= T0 + 700; t += 20) {
    const f = incremental.render(t);
    colours.add(px(f, 60, 60).join());
    if ((t - T0) % 140 === 0) {
      const fresh = new Compositor(unit, [display], () => state, { fontDirs: [FONT_DIR] }).render(t);
      assert.ok(
        Buffer.from(f.data).equals(Buffer.from(fresh.data)),
        `frame at +${t - T0} ms differs from a full redraw`,
      );
    }
  }
  // The GIF animated: its top-left stripe took all three colours.
  assert.deepEqual([...colours].sort(), ['0,0,255,255', '0,255,0,255', '255,0,0,255']);
});
