import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { createCanvas } from 'canvas';
import type { AreaConfig } from '../../src/config/types.js';
import type { Frame } from '../../src/output/types.js';
import { EFFECT_NAMES } from '../../src/render/effects.js';
import { preloadImage } from '../../src/render/images.js';
import { area, lit, px, rig, T0 } from './helpers.js';

// The content is a solid white picture filling a 200 x 100 area on a blue background, so
// "how much of the content shows, and where" is a pixel count.
const AX = 100,
  AY = 20,
  AW = 200,
  AH = 100,
  D = 500;
let white = '';

before(async () => {
  const c = createCanvas(AW, AH);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, AW, AH);
  white = path.join(mkdtempSync(path.join(tmpdir(), 'mlds-fx-')), 'white.png');
  writeFileSync(white, c.toBuffer('image/png'));
  await preloadImage(white);
});

type Phase = 'enter' | 'leave';

/** Frames of one effect at the given fractions of its duration. */
function framesOf(effect: number, phase: Phase, at: number[]): Frame[] {
  const cfg: AreaConfig = area({
    id: 'pic',
    type: 'image',
    x: AX,
    y: AY,
    width: AW,
    height: AH,
    dispEffect: effect,
    clearEffect: effect,
    backgroundColor: { r: 0, g: 0, b: 255, a: 1 },
  });
  const r = rig([cfg], { effectDurationMs: D });
  if (phase === 'enter') {
    r.state.areas.set('pic', { area: cfg, source: 'request', file: white, setAt: T0 });
  } else {
    r.state.areas.set('pic', { area: cfg, source: 'request', file: white, setAt: T0 - 10_000 });
    r.compositor.render(T0 - 1);
    r.state.areas.set('pic', { area: cfg, source: 'none', setAt: T0 });
  }
  return at.map((p) => r.compositor.render(T0 + p * D));
}

const share = (f: Frame, x: number, y: number, w: number, h: number) => lit(f, AX + x, AY + y, w, h) / (w * h);
const HALF: Record<string, [number, number, number, number]> = {
  left: [0, 0, AW / 2, AH],
  right: [AW / 2, 0, AW / 2, AH],
  top: [0, 0, AW, AH / 2],
  bottom: [0, AH / 2, AW, AH / 2],
};
const OPPOSITE: Record<string, string> = { left: 'right', right: 'left', top: 'bottom', bottom: 'top' };

/** Which half shows the content halfway through, per effect and phase. */
const HALF_SHOWING: Record<number, Record<Phase, string>> = {
  3: { enter: 'right', leave: 'right' },
  4: { enter: 'left', leave: 'left' },
  5: { enter: 'bottom', leave: 'bottom' },
  6: { enter: 'top', leave: 'top' },
  7: { enter: 'left', leave: 'right' },
  8: { enter: 'right', leave: 'left' },
  9: { enter: 'top', leave: 'bottom' },
  10: { enter: 'bottom', leave: 'top' },
};

function checkMiddle(effect: number, phase: Phase, f: Frame): void {
  const name = `${effect} ${EFFECT_NAMES[effect]} ${phase}`;
  const half = HALF_SHOWING[effect]?.[phase];
  if (half) {
    assert.ok(share(f, ...HALF[half]) > 0.99, `${name}: ${half} half shows`);
    assert.ok(share(f, ...HALF[OPPOSITE[half]]) < 0.01, `${name}: other half empty`);
    return;
  }
  switch (effect) {
    case 2: {
      const [r, , b] = px(f, AX + AW / 2, AY + AH / 2);
      assert.ok(r >= 120 && r <= 136 && b === 255, `${name}: half-transparent white over blue, got r=${r}`);
      return;
    }
    case 11:
      assert.ok(
        share(f, AW / 4, 0, AW / 2, AH) > 0.99 &&
          share(f, 0, 0, AW / 4 - 1, AH) < 0.01 &&
          share(f, (3 * AW) / 4 + 1, 0, AW / 4 - 1, AH) < 0.01,
        name,
      );
      return;
    case 12:
      assert.ok(
        share(f, 0, AH / 4, AW, AH / 2) > 0.99 &&
          share(f, 0, 0, AW, AH / 4 - 1) < 0.01 &&
          share(f, 0, (3 * AH) / 4 + 1, AW, AH / 4 - 1) < 0.01,
        name,
      );
      return;
    case 13: {
      // Every slat half open: about half the rows lit, in several separate bands.
      let bands = 0,
        litRows = 0,
        prev = false;
      for (let y = 0; y < AH; y++) {
        const on = share(f, 0, y, AW, 1) > 0.99;
        if (on) litRows++;
        if (on && !prev) bands++;
        prev = on;
      }
      assert.ok(bands >= 7 && Math.abs(litRows / AH - 0.5) < 0.1, `${name}: ${bands} bands, ${litRows} rows`);
      return;
    }
    case 14:
      // Scattered: every quadrant about half lit, unlike any wipe.
      for (const [x, y] of [
        [0, 0],
        [AW / 2, 0],
        [0, AH / 2],
        [AW / 2, AH / 2],
      ]) {
        const s = share(f, x, y, AW / 2, AH / 2);
        assert.ok(s > 0.3 && s < 0.7, `${name}: quadrant ${x},${y} ${s}`);
      }
      return;
    case 15:
      // Halfway is the second "on" when entering and the second "off" when leaving.
      assert.equal(share(f, 0, 0, AW, AH), phase === 'enter' ? 1 : 0, name);
      return;
  }
}

for (let effect = 1; effect <= 15; effect++) {
  for (const phase of ['enter', 'leave'] as const) {
    test(
      `effect ${effect} (${EFFECT_NAMES[effect]}) ${phase === 'enter' ? 'dispEffect' : 'clearEffect'}: start, ` +
        `middle, end`,
      () => {
        const [start, middle, end] = framesOf(effect, phase, [0, 0.5, 1]);
        const all = (f: Frame) => share(f, 0, 0, AW, AH);
        if (effect === 1) {
          // "none": the change is complete at once.
          assert.equal(all(start), phase === 'enter' ? 1 : 0);
        } else {
          assert.equal(all(start), phase === 'enter' ? 0 : 1, 'start');
          checkMiddle(effect, phase, middle);
        }
        assert.equal(all(end), phase === 'enter' ? 1 : 0, 'end');
        // Nothing ever draws outside the area, whatever the effect does.
        assert.equal(lit(end, 0, 0, AX, 160) + lit(middle, AX + AW, 0, 640 - AX - AW, 160), 0);
      },
    );
  }
}

test('flash (15) flashes exactly three times', () => {
  for (const phase of ['enter', 'leave'] as const) {
    const at = Array.from({ length: 60 }, (_, i) => i / 60);
    const on = framesOf(15, phase, at).map((f) => share(f, 0, 0, AW, AH) === 1);
    let flashes = 0;
    for (let i = 0; i < on.length; i++) if (on[i] && (i === 0 || !on[i - 1])) flashes++;
    assert.equal(flashes, 3, phase);
  }
});

test('old content leaves with clearEffect, then new content enters with dispEffect', () => {
  const cfg = area({
    id: 'pic',
    type: 'image',
    x: AX,
    y: AY,
    width: AW,
    height: AH,
    clearEffect: 7,
    dispEffect: 2,
    backgroundColor: { r: 0, g: 0, b: 255, a: 1 },
  });
  const r = rig([cfg], { effectDurationMs: D });
  r.state.areas.set('pic', { area: cfg, source: 'request', file: white, setAt: T0 - 10_000 });
  r.compositor.render(T0 - 1);
  r.state.areas.set('pic', { area: cfg, source: 'request', file: white, fontSize: 1, setAt: T0 });
  const wiping = r.compositor.render(T0 + D / 2);
  assert.ok(share(wiping, ...HALF.left) < 0.01 && share(wiping, ...HALF.right) > 0.99, 'wiping out');
  const fading = r.compositor.render(T0 + D + D / 2);
  assert.ok(px(fading, AX + 10, AY + 10)[0] > 100 && px(fading, AX + 10, AY + 10)[0] < 150, 'then fading in');
  assert.equal(share(r.compositor.render(T0 + 2 * D), 0, 0, AW, AH), 1);
});

test('effects work the same on text, static, date and image areas', () => {
  for (const type of ['text', 'static', 'date', 'image'] as const) {
    const cfg = area({
      id: 'x',
      type,
      x: AX,
      y: AY,
      width: AW,
      height: AH,
      dispEffect: 7,
      fontSize: 60,
      align: 'center',
      dateFormat: "'WW'",
      dateOffset: 0,
      backgroundColor: { r: 0, g: 0, b: 255, a: 1 },
    });
    const r = rig([cfg], { effectDurationMs: D });
    const value =
      type === 'image' ? { file: white } : type === 'date' ? { source: 'default' as const } : { text: 'WW' };
    r.set(cfg, { ...value, setAt: T0 });
    const half = r.compositor.render(T0 + D / 2);
    const done = r.compositor.render(T0 + D);
    assert.ok(share(done, ...HALF.right) > 0.05, `${type}: content on the right once entered`);
    assert.ok(
      share(half, ...HALF.left) > 0.05 && share(half, ...HALF.right) === 0,
      `${type}: wiped in from the left halfway`,
    );
  }
});
