// A reader for BDF 2.1 bitmap fonts (Adobe's Glyph Bitmap Distribution Format).
//
// Layout of the file (text, one keyword a line):
//   STARTFONT 2.1
//   FONTBOUNDINGBOX w h xoff yoff       font-wide box, y offset from the baseline (up)
//   STARTPROPERTIES n .. ENDPROPERTIES  PIXEL_SIZE, FONT_ASCENT, FONT_DESCENT, DEFAULT_CHAR
//   CHARS n
//   STARTCHAR name
//   ENCODING code                       Unicode code point for ISO10646 fonts; -1 = none
//   DWIDTH dx dy                        advance in pixels
//   BBX w h xoff yoff                   glyph box relative to the origin on the baseline
//   BITMAP                              h rows of hex, each row padded to whole bytes, MSB first
//   ENDCHAR
//   ENDFONT
import { readFileSync, statSync } from 'node:fs';

export interface BdfGlyph {
  /** Advance in font pixels. */
  dwidth: number;
  w: number; h: number;
  /** Left of the box from the origin, and its bottom above the baseline (negative: below). */
  xoff: number; yoff: number;
  /** w*h bits, row-major from the top row: 1 = lit. */
  bits: Uint8Array;
}

export interface BitmapFont {
  file: string;
  /** Height in pixels a line of this font takes (ascent + descent). */
  pixelSize: number;
  ascent: number;
  descent: number;
  glyphs: Map<number, BdfGlyph>;
}

/** A BDF of GNU Unifont's whole BMP is about 10 MB; anything much larger is not a font a sign needs. */
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_GLYPH_SIDE = 256;
const BLOCK_BYTES = 64 * 1024;

export class BdfError extends Error {}

function ints(parts: string[], n: number, line: number): number[] {
  const out = parts.slice(1, 1 + n).map(Number);
  if (out.length !== n || out.some((v) => !Number.isInteger(v))) throw new BdfError(`line ${line}: ${parts[0]} needs ${n} integers`);
  return out;
}

/** Nibble value of each character code, -1 for a character that is not hex. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let c = 0; c < 16; c++) NIBBLE['0123456789ABCDEF'.charCodeAt(c)] = NIBBLE['0123456789abcdef'.charCodeAt(c)] = c;

/** Keyword lines start with one of these letters (B D E F S); any other line is skipped unread. */
const KEY_INITIAL = new Uint8Array(128);
for (const c of 'BDEFS') KEY_INITIAL[c.charCodeAt(0)] = 1;

const blank = (c: number): boolean => c <= 32;

/** Decodes the hex in text[from, to) into `w` bits at `at`; false when it is not w bits of hex. */
function decodeRow(text: string, from: number, to: number, w: number, bits: Uint8Array, at: number): boolean {
  if ((to - from) * 4 < w) return false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    const nib = c < 128 ? NIBBLE[c] : -1;
    if (nib < 0) return false;
    const x0 = (k - from) * 4;
    for (let b = 0; b < 4 && x0 + b < w; b++) bits[at + x0 + b] = (nib >> (3 - b)) & 1;
  }
  return true;
}

// The text is walked with a cursor, only keyword lines are cut out and split, and bitmap rows
// are decoded in place: a start parses the bitmap fonts its configuration names while checking
// it, and splitting, trimming and matching every one of their 60,000 lines took about 110 ms
// cold (mostly the garbage collector) for the two fonts of the example configuration.
export function parseBdf(text: string, file = '(bdf)'): BitmapFont {
  const lineEnd = (from: number): number => { const e = text.indexOf('\n', from); return e < 0 ? text.length : e; };
  let end = lineEnd(0);
  if (!/^STARTFONT\s+2\.[12]/.test(text.slice(0, end))) throw new BdfError('not a BDF 2.1 font (no STARTFONT 2.1 line)');
  let box = [0, 0, 0, 0];
  let ascent: number | undefined;
  let descent: number | undefined;
  const glyphs = new Map<number, BdfGlyph>();
  let enc = -1, dwidth = 0, bbx: number[] | undefined;
  let line = 1;
  // The glyphs' bits are views into shared blocks: a buffer of its own per glyph cost an
  // ArrayBuffer and a malloc'd store each (7x13.bdf has 3,226 glyphs).
  let block = new Uint8Array(0), used = 0;
  const carve = (n: number): Uint8Array => {
    if (used + n > block.length) { block = new Uint8Array(Math.max(BLOCK_BYTES, n)); used = 0; }
    used += n;
    return block.subarray(used - n, used);
  };
  for (let at = end + 1; at < text.length; at = end + 1) {
    line++;
    end = lineEnd(at);
    let s = at;
    while (s < end && blank(text.charCodeAt(s))) s++;
    if (!KEY_INITIAL[text.charCodeAt(s)]) continue;
    const parts = text.slice(s, end).trim().split(/\s+/);
    switch (parts[0]) {
      case 'FONTBOUNDINGBOX': box = ints(parts, 4, line); break;
      case 'FONT_ASCENT': [ascent] = ints(parts, 1, line); break;
      case 'FONT_DESCENT': [descent] = ints(parts, 1, line); break;
      case 'STARTCHAR': enc = -1; dwidth = 0; bbx = undefined; break;
      case 'ENCODING': [enc] = ints(parts, 1, line); break;
      case 'DWIDTH': [dwidth] = ints(parts, 1, line); break;
      case 'BBX': bbx = ints(parts, 4, line); break;
      case 'BITMAP': {
        const [w, h, xoff, yoff] = bbx ?? box;
        if (w < 0 || h < 0 || w > MAX_GLYPH_SIDE || h > MAX_GLYPH_SIDE) throw new BdfError(`line ${line}: glyph box ${w}x${h} out of range`);
        const bits = carve(w * h);
        for (let row = 0; row < h; row++) {
          const from = Math.min(end + 1, text.length);
          end = lineEnd(from);
          line++;
          let a = from, z = end;
          while (a < z && blank(text.charCodeAt(a))) a++;
          while (z > a && blank(text.charCodeAt(z - 1))) z--;
          if (!decodeRow(text, a, z, w, bits, row * w)) throw new BdfError(`line ${line}: bitmap row "${text.slice(a, z)}" is not ${w} bits of hex`);
        }
        const next = Math.min(end + 1, text.length);
        if (text.slice(next, lineEnd(next)).trim() !== 'ENDCHAR') throw new BdfError(`line ${line + 1}: ENDCHAR expected after ${h} bitmap rows`);
        if (enc >= 0) glyphs.set(enc, { dwidth, w, h, xoff, yoff, bits });
        break;
      }
      default: break;
    }
  }
  // Without the properties the font box says where the baseline is.
  const asc = ascent ?? box[1] + box[3];
  const desc = descent ?? -box[3];
  if (glyphs.size === 0) throw new BdfError('holds no glyphs');
  if (asc + desc <= 0) throw new BdfError('has no height (FONT_ASCENT + FONT_DESCENT is 0)');
  return { file, pixelSize: asc + desc, ascent: asc, descent: desc, glyphs };
}

const cache = new Map<string, { mtimeMs: number; font: BitmapFont }>();

/** The font in `file`, parsed once per file version. Throws BdfError or an fs error. */
export function loadBdf(file: string): BitmapFont {
  const st = statSync(file);
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs) return hit.font;
  if (st.size > MAX_BYTES) throw new BdfError(`is ${st.size} bytes; at most ${MAX_BYTES} are read`);
  const font = parseBdf(readFileSync(file, 'latin1'), file);
  cache.set(file, { mtimeMs: st.mtimeMs, font });
  return font;
}

export const isBitmapFontFile = (file: string): boolean => /\.bdf$/i.test(file);

/** fontSize values a bitmap font draws at: whole multiples of its pixel size. */
export function bitmapScale(font: BitmapFont, fontSize: number): number | undefined {
  return fontSize % font.pixelSize === 0 && fontSize > 0 ? fontSize / font.pixelSize : undefined;
}

export function bitmapSizes(font: BitmapFont, max: number): string {
  const out: number[] = [];
  for (let s = font.pixelSize; s < max && out.length < 6; s += font.pixelSize) out.push(s);
  return out.length ? out.join(', ') : `${font.pixelSize} (larger than the area)`;
}
