import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { GifWriter } from 'omggif';
import type { DisplayState } from '../../src/control/state.js';
import { AreaRenderer } from '../../src/render/area.js';
import { Compositor } from '../../src/render/compositor.js';
import { preloadImage } from '../../src/render/images.js';
import { area, FONT_DIR, px, T0, soleDisplay } from './helpers.js';

let gif = '';
before(async () => {
  const buf = Buffer.alloc(8192);
  const gw = new GifWriter(buf, 40, 40, { palette: [0x000000, 0xff0000, 0x00ff00, 0x0000ff], loop: 0 });
  for (let f = 0; f < 3; f++) gw.addFrame(0, 0, 40, 40, new Array(1600).fill(f + 1), { delay: 7 });
  gif = path.join(mkdtempSync(path.join(tmpdir(), 'mlds-comp-')), 'a.gif');
  writeFileSync(gif, buf.subarray(0, gw.end()));
  await preloadImage(gif);
});

/**
 * A scene with everything at once: a scroll in a tall area, a clock, a GIF, overlapping areas and a translucent one on
 * top.
 */
function scene() {
  const areas = [
    area({
      id: 'scroll',
      x: 0,
      y: 0,
      width: 640,
      height: 120,
      fontSize: 40,
      backgroundColor: { r: 0, g: 0, b: 90, a: 1 },
    }),
    area({
      id: 'clock',
      type: 'date',
      x: 300,
      y: 110,
      width: 340,
      height: 50,
      fontSize: 30,
      dateFormat: 'HH:mm:ss',
      dateOffset: 1,
    }),
    area({ id: 'gif', type: 'image', x: 10, y: 60, width: 60, height: 60 }),
    area({
      id: 'badge',
      type: 'static',
      x: 500,
      y: 40,
      width: 120,
      height: 60,
      fontSize: 30,
      backgroundColor: { r: 200, g: 0, b: 0, a: 0.5 },
    }),
  ];
  const { display, unit } = soleDisplay(640, 160, { main: areas });
  const state: DisplayState = { id: 'd1', layout: 'main', layoutSetAt: T0, areas: new Map(), version: 1 };
  const [scroll, clock, pic, badge] = areas;
  state.areas.set('scroll', {
    area: scroll,
    source: 'request',
    text: 'Scrolling along under a translucent badge, past a clock and a GIF',
    setAt: T0,
  });
  state.areas.set('clock', { area: clock, source: 'default', setAt: T0 });
  state.areas.set('gif', { area: pic, source: 'request', file: gif, setAt: T0 });
  state.areas.set('badge', { area: badge, source: 'request', text: 'NEW', setAt: T0 });
  return { unit, display, state };
}

test('frames drawn incrementally (dirty areas only) equal frames drawn from scratch', () => {
  const s = scene();
  const incremental = new Compositor(s.unit, [s.display], () => s.state, { fontDirs: [FONT_DIR] });
  let checked = 0;
  for (let t = T0; t <= T0 + 2600; t += 20) {
    const f = incremental.render(t);
    if ((t - T0) % 260 === 0) {
      const fresh = new Compositor(s.unit, [s.display], () => s.state, { fontDirs: [FONT_DIR] }).render(t);
      assert.ok(
        Buffer.from(f.data).equals(Buffer.from(fresh.data)),
        `frame at +${t - T0} ms differs from a full redraw`,
      );
      checked++;
    }
  }
  assert.equal(checked, 11);
});

test('only areas whose picture changed are redrawn, with what overlaps them', (t) => {
  const s = scene();
  const c = new Compositor(s.unit, [s.display], () => s.state, { fontDirs: [FONT_DIR] });
  // Stop the scroll and the GIF so that only the clock changes between the two frames.
  s.state.areas.set('scroll', { ...s.state.areas.get('scroll')!, text: 'Short', setAt: T0 });
  s.state.areas.set('gif', { ...s.state.areas.get('gif')!, source: 'none', setAt: T0 });
  c.render(T0 + 500);
  const drawn: string[] = [];
  const draw = AreaRenderer.prototype.draw;
  t.mock.method(AreaRenderer.prototype, 'draw', function (this: AreaRenderer, ...args: Parameters<typeof draw>) {
    drawn.push(this.area.id);
    return draw.apply(this, args);
  });
  const before = c.latest();
  const f = c.render(T0 + 1000);
  // The clock's rectangle overlaps the scroll area's last rows: that is redrawn too (clipped).
  assert.deepEqual(drawn.sort(), ['clock', 'scroll']);
  assert.notEqual(f.seq, before.seq);
  assert.deepEqual(px(f, 100, 50), px(before, 100, 50));
  drawn.length = 0;
  assert.equal(c.render(T0 + 1500).seq, f.seq, 'same second: nothing drawn, same frame');
  assert.deepEqual(drawn, []);
});

test('a layout switch replaces the picture at once; no layout is black', () => {
  const s = scene();
  const c = new Compositor(s.unit, [s.display], () => s.state, { fontDirs: [FONT_DIR] });
  assert.deepEqual(px(c.render(T0), 5, 5), [0, 0, 90, 255]);
  s.state.layout = undefined;
  s.state.layoutSetAt = T0 + 10;
  assert.deepEqual(px(c.render(T0 + 10), 5, 5), [0, 0, 0, 255]);
  assert.equal(c.nextChange(T0 + 10), Infinity);
});

/** This process's anonymous memory (heaps, buffers: what the kernel cannot reclaim), MB. */
function anonymousMB(): number {
  return Number(/^Anonymous:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))![1]) / 1024;
}

test('a unit with nothing to show paints nothing: its picture takes no memory until something is drawn', () => {
  // 4K: a 33 MB picture, far more than a collection or malloc moves meanwhile.
  const W = 3840,
    H = 2160;
  const areas = [
    area({ id: 'a', x: 0, y: 0, width: W, height: H, fontSize: 200, backgroundColor: { r: 0, g: 0, b: 90, a: 1 } }),
  ];
  const { display, unit } = soleDisplay(W, H, { main: areas });
  // As after a start without a saved state: no layout until the first command.
  const state: DisplayState = { id: 'd1', layout: undefined, layoutSetAt: T0, areas: new Map(), version: 1 };
  const before = anonymousMB();
  const c = new Compositor(unit, [display], () => state, { fontDirs: [FONT_DIR] });
  const blank = c.render(T0);
  const idle = anonymousMB() - before;
  assert.ok(
    idle < 8,
    `nothing shown: ${idle.toFixed(1)} MB more anonymous memory (the picture is ` +
      `${((W * H * 4) / 2 ** 20).toFixed(0)} MB)`,
  );
  assert.equal(blank.seq, 0, 'no frame beyond the blank one');
  for (const [x, y] of [
    [0, 0],
    [W / 2, H / 2],
    [W - 1, H - 1],
  ])
    assert.deepEqual(px(blank, x, y), [0, 0, 0, 0], `(${x}, ${y}) is the blank picture's black`);
  state.layout = 'main';
  state.layoutSetAt = T0 + 10;
  state.areas.set('a', { area: areas[0], source: 'request', text: 'Shown', setAt: T0 + 10 });
  const shown = c.render(T0 + 10);
  assert.deepEqual(px(shown, 5, 5), [0, 0, 90, 255]);
  const drawn = anonymousMB() - before;
  assert.ok(drawn > idle + 25, `drawn: ${drawn.toFixed(1)} MB more, against ${idle.toFixed(1)} MB with nothing shown`);
  // And back to no layout: the picture was drawn on, so it is painted black again.
  state.layout = undefined;
  state.layoutSetAt = T0 + 20;
  assert.deepEqual(px(c.render(T0 + 20), 5, 5), [0, 0, 0, 255]);
});
