import { createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import type { Rgb } from '../../config/types.js';
import { cssFont } from '../fonts.js';

// Pango shaping is the expensive part of text: a line is shaped and rasterised once into
// a strip, and every frame after that is a plain image blit at the scroll position.

/** Cairo image surfaces stop at 32767 px; long scrolling texts are cut into tiles below that. */
const TILE = 8192;

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
  private tiles: Array<{ x: number; canvas: Canvas }> | undefined;

  constructor(readonly text: string, readonly style: TextStyle, readonly height: number) {
    measureCtx.font = cssFont(style.size, style.font);
    const m = measureCtx.measureText(text);
    this.width = m.width;
    this.pad = Math.ceil(style.size / 4);
    // The text's own ink is centred, so a route number or a word in capitals sits in the
    // middle of its box as a reader expects; an all-blank text falls back to the font box.
    let asc = m.actualBoundingBoxAscent;
    let desc = m.actualBoundingBoxDescent;
    if (!(asc + desc > 0)) { asc = m.emHeightAscent; desc = m.emHeightDescent; }
    this.baseline = Math.round((height - (asc + desc)) / 2 + asc);
    // Antialiasing and hinting may spill a row or two past the measured box.
    this.inkTop = Math.max(0, Math.floor(this.baseline - asc) - 2);
    this.inkBottom = Math.min(height, Math.ceil(this.baseline + desc) + 2);
  }

  /** Draws the strip with the text's advance box starting at (x, y) (y = top of the area). */
  draw(ctx: CanvasRenderingContext2D, x: number, y: number): void {
    for (const t of this.rasterise()) ctx.drawImage(t.canvas, x - this.pad + t.x, y);
  }

  private rasterise(): Array<{ x: number; canvas: Canvas }> {
    if (this.tiles) return this.tiles;
    const total = Math.ceil(this.width) + 2 * this.pad;
    const font = cssFont(this.style.size, this.style.font);
    const baseline = this.baseline;
    const { r, g, b } = this.style.color;
    this.tiles = [];
    for (let x0 = 0; x0 < total; x0 += TILE) {
      const canvas = createCanvas(Math.min(TILE, total - x0), Math.max(1, this.height));
      const ctx = canvas.getContext('2d');
      ctx.font = font;
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(this.text, this.pad - x0, baseline);
      this.tiles.push({ x: x0, canvas });
    }
    return this.tiles;
  }
}
