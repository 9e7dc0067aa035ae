import { createCanvas, createImageData, type Canvas, type CanvasRenderingContext2D } from 'canvas';

// dispEffect / clearEffect numbers (docs/configuration.md, Layouts and areas). Content is first painted
// into an area-sized transparent layer; an effect decides which part of that layer, where
// and how opaque, lands on the frame at progress p (0 = effect starts, 1 = it is over).

export const EFFECT_NAMES: Record<number, string> = {
  1: 'none',
  2: 'fade',
  3: 'move right',
  4: 'move left',
  5: 'move bottom',
  6: 'move top',
  7: 'wipe left to right',
  8: 'wipe right to left',
  9: 'wipe top to bottom',
  10: 'wipe bottom to top',
  11: 'open/close horizontally',
  12: 'open/close vertically',
  13: 'blinds',
  14: 'dissolve',
  15: 'flash',
};

export type EffectPhase = 'enter' | 'leave';

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Slat height of the blinds effect: eight slats on a tall area, never thinner than 4 px. */
function blindHeight(h: number): number {
  return Math.max(4, Math.ceil(h / 8));
}

/** Dissolve cell edge: coarse enough to read as a dissolve on a 1080p screen, 1 px on small LEDs. */
function dissolveCell(w: number, h: number): number {
  return Math.max(1, Math.round(Math.min(w, h) / 60));
}

/** A fixed pseudo-random rank in [0,1) per dissolve cell, so every run dissolves alike. */
function cellRank(i: number): number {
  let x = (i + 1) * 0x9e3779b1;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

const masks = new Map<string, { canvas: Canvas; ranks: Float32Array; cols: number; rows: number }>();

function dissolveMask(w: number, h: number, visible: number): Canvas {
  const cell = dissolveCell(w, h);
  const cols = Math.ceil(w / cell);
  const rows = Math.ceil(h / cell);
  const key = `${cols}x${rows}`;
  let m = masks.get(key);
  if (!m) {
    const ranks = new Float32Array(cols * rows);
    for (let i = 0; i < ranks.length; i++) ranks[i] = cellRank(i);
    m = { canvas: createCanvas(cols, rows), ranks, cols, rows };
    masks.set(key, m);
  }
  const px = new Uint8ClampedArray(cols * rows * 4);
  for (let i = 0; i < m.ranks.length; i++) if (m.ranks[i] < visible) px[i * 4 + 3] = 255;
  m.canvas.getContext('2d').putImageData(createImageData(px, cols, rows), 0, 0);
  return m.canvas;
}

/**
 * The visible parts of the area (relative rectangles) for the clip-based effects, or
 * undefined for the effects that are not a clip. `v` is the visible share 0..1.
 */
function clipRects(effect: number, phase: EffectPhase, v: number, w: number, h: number): Rect[] | undefined {
  const vw = Math.round(w * v);
  const vh = Math.round(h * v);
  // Wipes enter and leave in the same direction: the edge sweeps across once, revealing
  // on entry and erasing on exit.
  const leading = phase === 'enter';
  switch (effect) {
    case 7:
      return [leading ? { x: 0, y: 0, w: vw, h } : { x: w - vw, y: 0, w: vw, h }];
    case 8:
      return [leading ? { x: w - vw, y: 0, w: vw, h } : { x: 0, y: 0, w: vw, h }];
    case 9:
      return [leading ? { x: 0, y: 0, w, h: vh } : { x: 0, y: h - vh, w, h: vh }];
    case 10:
      return [leading ? { x: 0, y: h - vh, w, h: vh } : { x: 0, y: 0, w, h: vh }];
    case 11:
      return [{ x: Math.round((w - vw) / 2), y: 0, w: vw, h }];
    case 12:
      return [{ x: 0, y: Math.round((h - vh) / 2), w, h: vh }];
    case 13: {
      const slat = blindHeight(h);
      const open = Math.round(slat * v);
      const out: Rect[] = [];
      for (let y = 0; y < h; y += slat) out.push({ x: 0, y, w, h: Math.min(open, h - y) });
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * Puts `layer` (the area's content, w x h, transparent where empty) onto ctx at (x, y) as
 * effect `effect` shows it at progress p of the phase. The caller has clipped to the area.
 */
export function drawWithEffect(
  ctx: CanvasRenderingContext2D,
  layer: Canvas,
  x: number,
  y: number,
  w: number,
  h: number,
  effect: number,
  phase: EffectPhase,
  p: number,
): void {
  const t = Math.min(1, Math.max(0, p));
  const v = phase === 'enter' ? t : 1 - t;
  if (v <= 0 && effect !== 15) return;
  switch (effect) {
    case 2:
      ctx.save();
      ctx.globalAlpha = v;
      ctx.drawImage(layer, x, y);
      ctx.restore();
      return;
    case 3:
      ctx.drawImage(layer, x + Math.round(w * (1 - v)), y);
      return;
    case 4:
      ctx.drawImage(layer, x - Math.round(w * (1 - v)), y);
      return;
    case 5:
      ctx.drawImage(layer, x, y + Math.round(h * (1 - v)));
      return;
    case 6:
      ctx.drawImage(layer, x, y - Math.round(h * (1 - v)));
      return;
    case 14: {
      if (v >= 1) {
        ctx.drawImage(layer, x, y);
        return;
      }
      const lctx = layer.getContext('2d');
      lctx.save();
      lctx.globalCompositeOperation = 'destination-in';
      lctx.imageSmoothingEnabled = false;
      lctx.quality = 'nearest';
      lctx.drawImage(dissolveMask(w, h, v), 0, 0, w, h);
      lctx.restore();
      ctx.drawImage(layer, x, y);
      return;
    }
    case 15: {
      // Three flashes: off/on three times when entering (ending on), on/off when leaving (ending off).
      if (t >= 1) {
        if (phase === 'enter') ctx.drawImage(layer, x, y);
        return;
      }
      const odd = Math.floor(t * 6) % 2 === 1;
      if (odd === (phase === 'enter')) ctx.drawImage(layer, x, y);
      return;
    }
    default: {
      const rects = clipRects(effect, phase, v, w, h);
      if (!rects) {
        ctx.drawImage(layer, x, y);
        return;
      }
      for (const r of rects) {
        if (r.w > 0 && r.h > 0) ctx.drawImage(layer, r.x, r.y, r.w, r.h, x + r.x, y + r.y, r.w, r.h);
      }
    }
  }
}
