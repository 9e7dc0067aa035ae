import { createCanvas, Image, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import { readFileSync, statSync } from 'node:fs';
import type { Rgb } from '../../config/types.js';
import { bufferReader, pictureHeader } from '../../media/picture-header.js';
import type { BitmapFace } from '../../text/faces.js';
import { bitmapCell, vectorCell } from '../../text/char-gap.js';
import type { GraphicPiece, LaidLine, TextPiece } from '../../text/lines.js';

// A laid-out line rasterised once, in tiles (cairo surfaces stop at 32767 px), and blitted
// at whole pixels every frame after. Bitmap glyphs and crisp TrueType are written as pixels:
// every lit pixel is exactly the piece's colour, every other one stays transparent.

const TILE = 4096;
const KEEP_TILES = 3;
const MAX_GRAPHIC_BYTES = 4 * 1024 * 1024;
const MAX_GRAPHIC_SIDE = 2048;

const graphics = new Map<string, { mtimeMs: number; image: Image }>();

/** An inline graphic ([g<n>]), decoded once per file version; undefined when it cannot be read. */
export function graphicImage(file: string): Image | undefined {
  try {
    const st = statSync(file);
    const hit = graphics.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs) return hit.image;
    if (st.size > MAX_GRAPHIC_BYTES) return undefined;
    const bytes = readFileSync(file);
    // By its header, before decoding: a few kilobytes of PNG can decode to gigabytes.
    const h = pictureHeader(bufferReader(bytes));
    if ('error' in h || h.width > MAX_GRAPHIC_SIDE || h.height > MAX_GRAPHIC_SIDE) return undefined;
    const image = new Image();
    image.src = bytes;
    graphics.set(file, { mtimeMs: st.mtimeMs, image });
    return image;
  } catch {
    return undefined;
  }
}

const isText = (p: TextPiece | GraphicPiece): p is TextPiece => 'text' in p;

function setPx(d: Uint8ClampedArray, w: number, h: number, x: number, y: number, c: Rgb): void {
  if (x < 0 || y < 0 || x >= w || y >= h) return;
  const i = (y * w + x) * 4;
  d[i] = c.r;
  d[i + 1] = c.g;
  d[i + 2] = c.b;
  d[i + 3] = 255;
}

function paintBitmap(
  d: Uint8ClampedArray,
  w: number,
  h: number,
  p: TextPiece & { face: BitmapFace },
  x: number,
  baseline: number,
): void {
  const { font, scale } = p.face;
  for (const ch of p.text) {
    const cp = ch.codePointAt(0)!;
    const g = font.glyphs.get(cp);
    // Under [sc] the pen stands at the ink's left edge and moves by the ink's width and the gap.
    const cell = p.gap === undefined ? undefined : bitmapCell(font, scale, cp);
    const origin = cell ? x - cell.shift : x;
    if (g) {
      const left = origin + g.xoff * scale;
      const top = baseline - (g.yoff + g.h) * scale;
      for (let r = 0; r < g.h; r++) {
        for (let c = 0; c < g.w; c++) {
          if (!g.bits[r * g.w + c]) continue;
          for (let dy = 0; dy < scale; dy++)
            for (let dx = 0; dx < scale; dx++) setPx(d, w, h, left + c * scale + dx, top + r * scale + dy, p.color);
        }
      }
    }
    x += cell ? cell.ink + p.gap! : g ? g.dwidth * scale : 0;
  }
}

function fillPiece(ctx: CanvasRenderingContext2D, p: TextPiece, x: number, baseline: number): void {
  if (p.face.kind !== 'vector') return;
  ctx.font = p.face.css;
  if (p.gap !== undefined) {
    // Character by character, each to its ink (pango's shaping and kerning do not cross characters).
    for (const ch of p.text) {
      const c = vectorCell(p.face.css, p.face.crisp, ch);
      ctx.fillText(ch, x - c.shift, baseline);
      x += c.ink + p.gap;
    }
    return;
  }
  ctx.fillText(p.text, x, baseline);
}

/** Crisp TrueType: drawn in white on a scratch canvas, every pixel at least half covered becomes the colour. */
function paintCrisp(
  d: Uint8ClampedArray,
  w: number,
  h: number,
  p: TextPiece,
  x: number,
  baseline: number,
  pad: number,
): void {
  const left = Math.floor(x) - pad;
  const sw = Math.max(1, Math.min(w - left, Math.ceil(p.width) + 2 * pad));
  if (left + sw <= 0 || left >= w) return;
  const c = createCanvas(sw, h).getContext('2d');
  c.antialias = 'none';
  c.fillStyle = '#fff';
  fillPiece(c, p, x - left, baseline);
  const a = c.getImageData(0, 0, sw, h).data;
  for (let y = 0; y < h; y++)
    for (let i = 0; i < sw; i++) if (a[(y * sw + i) * 4 + 3] >= 128) setPx(d, w, h, left + i, y, p.color);
}

export class LineRaster {
  readonly width: number;
  readonly height: number;
  private readonly pad: number;
  private readonly tiles = new Map<number, Canvas>();

  constructor(
    readonly line: LaidLine,
    private readonly graphicFile: (n: number) => string | undefined,
  ) {
    this.width = Math.ceil(line.width);
    this.height = Math.max(1, line.ascent + line.descent);
    this.pad = Math.ceil(Math.max(line.ascent, 4) / 4);
  }

  get tileCount(): number {
    return this.tiles.size;
  }

  /** Lets go of the rasterised tiles (the line left the area); a later draw makes them again. */
  release(): void {
    this.tiles.clear();
  }

  /** Draws the line with its advance box at x, its top at y; only tiles between `left` and `right` are rasterised. */
  draw(ctx: CanvasRenderingContext2D, x: number, y: number, left = -Infinity, right = Infinity): void {
    const origin = x - this.pad;
    const total = this.width + 2 * this.pad;
    const last = Math.min(Math.ceil(total / TILE) - 1, Math.floor((right - origin) / TILE));
    const first = Math.max(0, Math.floor((left - origin) / TILE));
    for (let i = first; i <= last; i++) ctx.drawImage(this.tile(i, total), origin + i * TILE, y);
    if (this.tiles.size > KEEP_TILES)
      for (const i of this.tiles.keys()) if (i < first || i > last + 1) this.tiles.delete(i);
  }

  private tile(i: number, total: number): Canvas {
    const hit = this.tiles.get(i);
    if (hit) return hit;
    const x0 = i * TILE - this.pad;
    const w = Math.min(TILE, total - i * TILE);
    const h = this.height;
    const canvas = createCanvas(w, h);
    const ctx = canvas.getContext('2d');
    const baseline = this.line.ascent;
    const near = this.line.pieces.filter((p) => p.x + p.width + this.pad > x0 && p.x - this.pad < x0 + w);
    const pixels = near.filter((p) => isText(p) && (p.face.kind === 'bitmap' || p.face.crisp)) as TextPiece[];
    ctx.textBaseline = 'alphabetic';
    for (const p of near) {
      if (!isText(p) || pixels.includes(p)) continue;
      ctx.fillStyle = `rgb(${p.color.r},${p.color.g},${p.color.b})`;
      fillPiece(ctx, p, Math.round(p.x) - x0, baseline);
    }
    if (pixels.length) {
      const img = ctx.getImageData(0, 0, w, h);
      for (const p of pixels) {
        const px = Math.round(p.x) - x0;
        if (p.face.kind === 'bitmap') paintBitmap(img.data, w, h, p as TextPiece & { face: BitmapFace }, px, baseline);
        else paintCrisp(img.data, w, h, p, px, baseline, this.pad);
      }
      ctx.putImageData(img, 0, 0);
    }
    for (const p of near) {
      if (isText(p)) continue;
      const file = this.graphicFile(p.graphic);
      const image = file ? graphicImage(file) : undefined;
      if (image) ctx.drawImage(image, Math.round(p.x) - x0, baseline - p.height);
    }
    this.tiles.set(i, canvas);
    return canvas;
  }
}
