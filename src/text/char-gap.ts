// MULTI [sc<n>] (NTCIP 1203 character spacing): n pixels between one character and the
// next, in place of the spacing the font puts there itself. A NTCIP font's characters are
// drawn to their ink and the font adds its spacing between them; a BDF or TrueType font
// builds its spacing into each advance as blank columns (side bearings). Under [sc] a
// character is therefore its ink box: its advance is the ink's width, and its drawing origin
// is moved so the ink starts at the pen. A character without ink (a space) keeps its advance.
import { createCanvas, type CanvasRenderingContext2D } from 'canvas';
import type { BitmapFont } from './bdf.js';
import type { BdfGlyph } from './bdf-glyphs.js';

/**
 * A character under [sc]: the pixels it takes, how far its drawing origin stands left of the
 * pen, and its advance as the font has it (what it takes without [sc]).
 */
export interface Cell {
  ink: number;
  shift: number;
  advance: number;
}

/** Blank columns the font leaves after a character's ink (its right side bearing). */
export const rightBearing = (c: Cell): number => c.advance - c.shift - c.ink;

/** Ink columns of a glyph, from its origin, in font pixels: [left, right), or undefined when blank. */
const inkColumns = new WeakMap<BdfGlyph, [number, number] | null>();

function columnsOf(g: BdfGlyph): [number, number] | null {
  let hit = inkColumns.get(g);
  if (hit !== undefined) return hit;
  let lo = g.w,
    hi = -1;
  for (let r = 0; r < g.h; r++)
    for (let c = 0; c < g.w; c++)
      if (g.bits[r * g.w + c]) {
        if (c < lo) lo = c;
        if (c > hi) hi = c;
      }
  hit = hi < 0 ? null : [g.xoff + lo, g.xoff + hi + 1];
  inkColumns.set(g, hit);
  return hit;
}

export function bitmapCell(font: BitmapFont, scale: number, cp: number): Cell {
  const g = font.glyphs.get(cp);
  if (!g) return { ink: 0, shift: 0, advance: 0 };
  const cols = columnsOf(g);
  const advance = g.dwidth * scale;
  return cols
    ? { ink: (cols[1] - cols[0]) * scale, shift: cols[0] * scale, advance }
    : { ink: advance, shift: 0, advance };
}

const MAX_CELLS = 4096;
const vectorCells = new Map<string, Cell>();
let scratch: CanvasRenderingContext2D | undefined;

/**
 * A TrueType character under [sc], found by drawing it once at a whole-pixel origin and reading
 * which columns it lights (alpha at least one half when `crisp`, as line-raster.ts keeps them;
 * any alpha otherwise). Drawn at whole pixels the same way, its ink lands on those columns, so
 * the gap is exact; pango's own ink rectangle is rounded outwards and was a pixel off.
 */
export function vectorCell(css: string, crisp: boolean, ch: string): Cell {
  const key = `${crisp ? 1 : 0}${css}\u0000${ch}`;
  const hit = vectorCells.get(key);
  if (hit) return hit;
  const ctx = (scratch ??= createCanvas(1, 1).getContext('2d'));
  ctx.font = css;
  const m = ctx.measureText(ch);
  const size = Math.ceil(m.emHeightAscent + m.emHeightDescent);
  const pad = size;
  const w = Math.ceil(m.width) + 2 * pad,
    h = size + 2 * pad;
  const c = createCanvas(w, h).getContext('2d');
  c.antialias = crisp ? 'none' : 'default';
  c.font = css;
  c.fillStyle = '#fff';
  c.fillText(ch, pad, pad + Math.ceil(m.emHeightAscent));
  const alpha = c.getImageData(0, 0, w, h).data;
  let lo = w,
    hi = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = alpha[(y * w + x) * 4 + 3];
      if (crisp ? a >= 128 : a > 0) {
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
  }
  const cell =
    hi < 0 ? { ink: m.width, shift: 0, advance: m.width } : { ink: hi - lo + 1, shift: lo - pad, advance: m.width };
  if (vectorCells.size >= MAX_CELLS) vectorCells.delete(vectorCells.keys().next().value!);
  vectorCells.set(key, cell);
  return cell;
}

/** Width of characters drawn `gap` px apart (no gap after the last). */
export function gappedWidth(cells: Iterable<Cell>, gap: number): number {
  let w = 0,
    n = 0;
  for (const c of cells) {
    w += c.ink;
    n++;
  }
  return n ? w + gap * (n - 1) : 0;
}
