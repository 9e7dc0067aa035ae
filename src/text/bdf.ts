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

export class BdfError extends Error {}

function ints(parts: string[], n: number, line: number): number[] {
  const out = parts.slice(1, 1 + n).map(Number);
  if (out.length !== n || out.some((v) => !Number.isInteger(v))) throw new BdfError(`line ${line}: ${parts[0]} needs ${n} integers`);
  return out;
}

export function parseBdf(text: string, file = '(bdf)'): BitmapFont {
  const lines = text.split(/\r?\n/);
  if (!/^STARTFONT\s+2\.[12]/.test(lines[0] ?? '')) throw new BdfError('not a BDF 2.1 font (no STARTFONT 2.1 line)');
  let box = [0, 0, 0, 0];
  let ascent: number | undefined;
  let descent: number | undefined;
  const glyphs = new Map<number, BdfGlyph>();
  let enc = -1, dwidth = 0, bbx: number[] | undefined;
  for (let i = 1; i < lines.length; i++) {
    const parts = lines[i].trim().split(/\s+/);
    switch (parts[0]) {
      case 'FONTBOUNDINGBOX': box = ints(parts, 4, i + 1); break;
      case 'FONT_ASCENT': [ascent] = ints(parts, 1, i + 1); break;
      case 'FONT_DESCENT': [descent] = ints(parts, 1, i + 1); break;
      case 'STARTCHAR': enc = -1; dwidth = 0; bbx = undefined; break;
      case 'ENCODING': [enc] = ints(parts, 1, i + 1); break;
      case 'DWIDTH': [dwidth] = ints(parts, 1, i + 1); break;
      case 'BBX': bbx = ints(parts, 4, i + 1); break;
      case 'BITMAP': {
        const [w, h, xoff, yoff] = bbx ?? box;
        if (w < 0 || h < 0 || w > MAX_GLYPH_SIDE || h > MAX_GLYPH_SIDE) throw new BdfError(`line ${i + 1}: glyph box ${w}x${h} out of range`);
        const bits = new Uint8Array(w * h);
        for (let row = 0; row < h; row++) {
          const hex = (lines[i + 1 + row] ?? '').trim();
          if (!/^[0-9A-Fa-f]*$/.test(hex) || hex.length * 4 < w) throw new BdfError(`line ${i + 2 + row}: bitmap row "${hex}" is not ${w} bits of hex`);
          for (let x = 0; x < w; x++) {
            const nib = parseInt(hex[x >> 2], 16);
            bits[row * w + x] = (nib >> (3 - (x & 3))) & 1;
          }
        }
        i += h;
        if (lines[i + 1]?.trim() !== 'ENDCHAR') throw new BdfError(`line ${i + 2}: ENDCHAR expected after ${h} bitmap rows`);
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
