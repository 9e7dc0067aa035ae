// The canvases the compositor draws on before reading the pixels back into the picture.
//
// The unit's strip canvas (its full width, STRIP_ROWS rows) is right for the wide rectangles a
// scroll or a clock repaints; a narrow one (an animated GIF 400 px wide on a 1920 px unit)
// drawn there is drawn once per strip it crosses (three draws of the bench's 400x320 GIF for
// each of its frames), and where the native helper cannot read cairo's pixels in place
// (read-back.ts) each strip was copied whole to use 400 px of its 1920: three 1 MB copies. A rectangle that would fill
// less than half the strip is drawn on a
// canvas of its own width instead, no bigger than the strip canvas, kept for the next frame
// of the same rectangle (an animation repaints the same one every time).
import { createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import type { Rect } from '../frame.js';

/** Rows of the strip canvas the unit is drawn on, a strip at a time (see Compositor.paint). */
export const STRIP_ROWS = 128;
/** Fitted canvases kept: an animated image, a second one, a small clock. */
const KEEP_FITTED = 3;

export interface Scratch {
  canvas: Canvas;
  ctx: CanvasRenderingContext2D;
  /** Unit column of the canvas's column 0. */
  x: number;
}

function scratchOf(w: number, h: number): Scratch {
  const canvas = createCanvas(w, h);
  // Opaque (cairo RGB24): every strip is filled black before anything is drawn, so no pixel
  // of it is ever transparent, and the read-back (read-back.ts) copies pixels instead of
  // undoing a premultiplied alpha (the frames are bit for bit the same).
  return { canvas, ctx: canvas.getContext('2d', { alpha: false }), x: 0 };
}

export class ScratchCanvases {
  /** Made on the first drawing: a unit with nothing to show holds no canvas (a 1080p strip is 1 MB). */
  private strip: Scratch | undefined;
  /** Fitted canvases by width * 65536 + rows, least recently used first. */
  private readonly fitted = new Map<number, Scratch>();
  /** The key used last: an animation asks for the same canvas every frame, which needs no reordering. */
  private lastKey = -1;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  /**
   * The canvas to draw rectangle `r` on, a strip of at most its height at a time: the strip
   * canvas, or when `r` would fill less than half of it, one `r.w` wide with as many of `r`'s
   * rows as the strip canvas's pixels allow (a 400x320 GIF on a 1920 px unit: one 400x320 strip).
   */
  for(r: Rect): Scratch {
    const strip = (this.strip ??= scratchOf(this.width, Math.min(this.height, STRIP_ROWS)));
    const area = this.width * strip.canvas.height;
    if (r.w * Math.min(r.h, strip.canvas.height) * 2 >= area) return strip;
    const rows = Math.min(r.h, Math.floor(area / r.w));
    const key = r.w * 65536 + rows;
    let s = this.fitted.get(key);
    if (s && key === this.lastKey) {
      s.x = r.x;
      return s;
    }
    if (s) this.fitted.delete(key);
    else {
      s = scratchOf(r.w, rows);
      if (this.fitted.size >= KEEP_FITTED) this.fitted.delete(this.fitted.keys().next().value!);
    }
    this.fitted.set(key, s);
    this.lastKey = key;
    s.x = r.x;
    return s;
  }

  /** Bytes of canvas held: the strip and the fitted ones. */
  get bytes(): number {
    let n = this.strip ? this.strip.canvas.stride * this.strip.canvas.height : 0;
    for (const s of this.fitted.values()) n += s.canvas.stride * s.canvas.height;
    return n;
  }
}
