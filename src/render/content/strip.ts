import { createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import type { Rgb } from '../../config/types.js';
import { cssFont } from '../../text/fonts.js';

// Pango shaping is the expensive part of text: a line is shaped and rasterised once into
// a strip, and every frame after that is a plain image blit at the scroll position.

/**
 * Cairo image surfaces stop at 32767 px, and a request can carry thousands of characters:
 * long texts are cut into tiles rasterised when they come into view and dropped after.
 */
const TILE = 4096;
/** Tiles kept per strip: the (at most two) in view of a 1920 px area, and the one coming next. */
const KEEP_TILES = 3;

const measureCtx = createCanvas(1, 1).getContext('2d');

export interface TextStyle {
  /** Absolute .ttf path; undefined = the default font. */
  font?: string;
  size: number;
  color: Rgb;
}

export function measureWidth(text: string, style: TextStyle): number {
  measureCtx.font = cssFont(style.size, style.font);
  return measureCtx.measureText(text).width;
}

/** One line of text rasterised on transparency, `height` px tall, vertically centred. */
export class TextStrip {
  /** Advance width of the text (where the next text would start). */
  readonly width: number;
  /** Room left and right of the advance box for glyph overhang (italics, accents). */
  private readonly pad: number;
  private readonly baseline: number;
  /** Rows (from the top of the area) that can hold ink; the rest is always transparent. */
  readonly inkTop: number;
  readonly inkBottom: number;
  private readonly tiles = new Map<number, Canvas>();

  constructor(
    readonly text: string,
    readonly style: TextStyle,
    readonly height: number,
  ) {
    measureCtx.font = cssFont(style.size, style.font);
    const m = measureCtx.measureText(text);
    this.width = m.width;
    this.pad = Math.ceil(style.size / 4);
    // The text's own ink is centred, so a route number or a word in capitals sits in the
    // middle of its box as a reader expects; an all-blank text falls back to the font box.
    let asc = m.actualBoundingBoxAscent;
    let desc = m.actualBoundingBoxDescent;
    if (!(asc + desc > 0)) {
      asc = m.emHeightAscent;
      desc = m.emHeightDescent;
    }
    this.baseline = Math.round((height - (asc + desc)) / 2 + asc);
    // Antialiasing and hinting may spill a row or two past the measured box.
    this.inkTop = Math.max(0, Math.floor(this.baseline - asc) - 2);
    this.inkBottom = Math.min(height, Math.ceil(this.baseline + desc) + 2);
  }

  /**
   * Draws the strip with the text's advance box starting at x (y = top of the area);
   * only the part between `left` and `right` (the area's edges) is rasterised.
   */
  draw(ctx: CanvasRenderingContext2D, x: number, y: number, left = -Infinity, right = Infinity): void {
    const origin = x - this.pad;
    const total = Math.ceil(this.width) + 2 * this.pad;
    const count = Math.ceil(total / TILE);
    const first = Math.max(0, Math.floor((left - origin) / TILE));
    const last = Math.min(count - 1, Math.floor((right - origin) / TILE));
    for (let i = first; i <= last; i++) ctx.drawImage(this.tile(i, total), origin + i * TILE, y);
    if (this.tiles.size > KEEP_TILES) {
      for (const i of this.tiles.keys()) if (i < first || i > last + 1) this.tiles.delete(i);
    }
  }

  private tile(i: number, total: number): Canvas {
    let canvas = this.tiles.get(i);
    if (canvas) return canvas;
    const x0 = i * TILE;
    canvas = createCanvas(Math.min(TILE, total - x0), Math.max(1, this.height));
    const ctx = canvas.getContext('2d');
    ctx.font = cssFont(this.style.size, this.style.font);
    const { r, g, b } = this.style.color;
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(this.text, this.pad - x0, this.baseline);
    this.tiles.set(i, canvas);
    return canvas;
  }
}
