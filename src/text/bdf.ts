// A reader for BDF 2.1 bitmap fonts (Adobe's Glyph Bitmap Distribution Format).
//
// Layout of the file (text, one keyword a line):
//   STARTFONT 2.1
//   FONTBOUNDINGBOX w h xoff yoff       font-wide box, y offset from the baseline (up)
//   STARTPROPERTIES n .. ENDPROPERTIES  PIXEL_SIZE, FONT_ASCENT, FONT_DESCENT, DEFAULT_CHAR
//   CHARS n
//   STARTCHAR name
//   ENCODING code                       Unicode code point for ISO10646 fonts; -1 = none
//   SWIDTH sx sy                        advance in 1/1000 of the point size (not read)
//   DWIDTH dx dy                        advance in pixels
//   BBX w h xoff yoff                   glyph box relative to the origin on the baseline
//   BITMAP                              h rows of hex, each row padded to whole bytes, MSB first
//   ENDCHAR
//   ENDFONT
import { readFileSync, statSync } from 'node:fs';
import { blank, GlyphTable, hexRow, lineEnd, rowsEnd } from './bdf-glyphs.js';

export { GlyphTable, type BdfGlyph } from './bdf-glyphs.js';

export interface BitmapFont {
  file: string;
  /** Height in pixels a line of this font takes (ascent + descent). */
  pixelSize: number;
  ascent: number;
  descent: number;
  /** Decoded on first get; dwidth(cp) reads the advance without decoding. */
  glyphs: GlyphTable;
}

/**
 * A BDF of GNU Unifont's whole BMP is about 10 MB; anything much larger is not a font a sign needs.
 * The font's text is kept to decode glyphs from on use (latin1, a byte a character): this bounds it.
 */
const MAX_BYTES = 32 * 1024 * 1024;
/**
 * Bound on every length a BDF font states, in font pixels: a glyph's box, offsets and advance,
 * the font's box, FONT_ASCENT, FONT_DESCENT and their sum (the line height), PIXEL_SIZE. Sign
 * fonts are 5 to 32 pixels high; a larger number is a broken file, and one that became a
 * canvas size faulted the area at run time (a canvas is at most 32767 px high).
 */
export const MAX_BDF_PIXELS = 256;

export class BdfError extends Error {}

/** Keyword lines start with one of these letters (B D E F P S); any other line is skipped unread. */
const KEY_INITIAL = new Uint8Array(128);
for (const c of 'BDEFPS') KEY_INITIAL[c.charCodeAt(0)] = 1;

/** Line number (from 1) of the text at `pos`: only for messages. */
function lineAt(text: string, pos: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The `n` integers after the keyword of the line at `at`, split into `parts`. */
function ints(parts: string[], n: number, text: string, at: number): number[] {
  const out = parts.slice(1, 1 + n).map(Number);
  if (out.length !== n || out.some((v) => !Number.isInteger(v)))
    throw new BdfError(`line ${lineAt(text, at)}: ${parts[0]} needs ${n} integers`);
  return out;
}

const inRange = (w: number, h: number): boolean => w >= 0 && h >= 0 && w <= MAX_BDF_PIXELS && h <= MAX_BDF_PIXELS;
const offsetOk = (v: number): boolean => Math.abs(v) <= MAX_BDF_PIXELS;

/** Throws unless `v` is within [min, MAX_BDF_PIXELS] (an offset: within plus or minus the bound). */
function bounded(what: string, v: number, min: number, text: string, at: number): void {
  if (v < min || v > MAX_BDF_PIXELS) {
    const where = at >= 0 ? `line ${lineAt(text, at)}: ` : '';
    throw new BdfError(`${where}${what} ${v} is out of range (${min}..${MAX_BDF_PIXELS} pixels)`);
  }
}

// A glyph laid out as BDF writers do (its keywords at line starts in this order, SWIDTH optional)
// is read up to its bitmap rows with one sticky pattern; any other is read line by line, the same.
// SEP is what split(/\s+/) splits a latin1 line at; after a keyword's integers the line may go on.
const SEP = '[\\t\\v\\f\\r \\xa0]';
const REST = `(?:${SEP}[^\\n]*)?\\n`;
const INT = `${SEP}+([+-]?\\d{1,9})`;
const GLYPH_HEAD = new RegExp(
  `STARTCHAR${REST}ENCODING${INT}${REST}(?:SWIDTH${REST})?` +
    `DWIDTH${INT}${REST}BBX${INT}${INT}${INT}${INT}${REST}BITMAP${REST}`,
  'y',
);

/**
 * Checks the bitmap rows after the BITMAP line at `bitmapAt` row by row, the way that names the
 * faulty line (rowsEnd refused them): throws, or returns where the line after ENDCHAR starts.
 */
function checkRows(text: string, bitmapAt: number, w: number, h: number): number {
  let line = lineAt(text, bitmapAt);
  let end = lineEnd(text, bitmapAt);
  for (let row = 0; row < h; row++) {
    const from = Math.min(end + 1, text.length);
    end = lineEnd(text, from);
    line++;
    let a = from,
      z = end;
    while (a < z && blank(text.charCodeAt(a))) a++;
    while (z > a && blank(text.charCodeAt(z - 1))) z--;
    if (!hexRow(text, a, z, w))
      throw new BdfError(`line ${line}: bitmap row "${text.slice(a, z)}" is not ${w} bits of hex`);
  }
  const next = Math.min(end + 1, text.length);
  const after = lineEnd(text, next);
  if (text.slice(next, after).trim() !== 'ENDCHAR')
    throw new BdfError(`line ${line + 1}: ENDCHAR expected after ${h} bitmap rows`);
  return after + 1;
}

// One pass checks every glyph and indexes it (GlyphTable), leaving its bits to be decoded on use:
// a start parses the bitmap fonts its configuration names while checking it, and splitting every
// line and decoding every glyph of the example's two fonts (4,823 glyphs, 90,000 lines) took
// 60-110 ms cold though a sign draws a few dozen. Most glyphs take two sticky patterns
// (GLYPH_HEAD, then rowsEnd for the rows and ENDCHAR); other lines are walked with a cursor and
// only keyword lines are split. 7x13.bdf now takes about 10 ms cold and 2 ms warm.
export function parseBdf(text: string, file = '(bdf)'): BitmapFont {
  const len = text.length;
  let end = lineEnd(text, 0);
  if (!/^STARTFONT\s+2\.[12]/.test(text.slice(0, end)))
    throw new BdfError('not a BDF 2.1 font (no STARTFONT 2.1 line)');
  let box = [0, 0, 0, 0];
  let ascent: number | undefined;
  let descent: number | undefined;
  const glyphs = new GlyphTable(text);
  let enc = -1,
    dwidth = 0,
    bbx: number[] | undefined;
  for (let at = end + 1; at < len; at = end + 1) {
    if (text.charCodeAt(at) === 83) {
      // S: perhaps a STARTCHAR in the usual layout
      GLYPH_HEAD.lastIndex = at;
      const m = GLYPH_HEAD.exec(text);
      const w = m ? +m[3] : -1,
        h = m ? +m[4] : -1;
      const sane = m && inRange(w, h) && +m[2] >= 0 && +m[2] <= MAX_BDF_PIXELS && offsetOk(+m[5]) && offsetOk(+m[6]);
      // A glyph out of bounds is read again line by line below, which names the faulty line.
      const after = sane ? rowsEnd(text, GLYPH_HEAD.lastIndex, w, h) : -1;
      if (m && after >= 0) {
        enc = +m[1];
        dwidth = +m[2];
        bbx = [w, h, +m[5], +m[6]];
        if (enc >= 0) glyphs.add(enc, GLYPH_HEAD.lastIndex, dwidth, w, h, bbx[2], bbx[3]);
        end = after - 1;
        continue;
      }
    }
    end = lineEnd(text, at);
    let s = at;
    while (s < end && blank(text.charCodeAt(s))) s++;
    if (!KEY_INITIAL[text.charCodeAt(s)]) continue;
    const parts = text.slice(s, end).trim().split(/\s+/);
    switch (parts[0]) {
      case 'FONTBOUNDINGBOX': {
        box = ints(parts, 4, text, at);
        bounded('FONTBOUNDINGBOX width', box[0], 0, text, at);
        bounded('FONTBOUNDINGBOX height', box[1], 0, text, at);
        bounded('FONTBOUNDINGBOX x offset', box[2], -MAX_BDF_PIXELS, text, at);
        bounded('FONTBOUNDINGBOX y offset', box[3], -MAX_BDF_PIXELS, text, at);
        break;
      }
      case 'FONT_ASCENT':
        [ascent] = ints(parts, 1, text, at);
        bounded('FONT_ASCENT', ascent, -MAX_BDF_PIXELS, text, at);
        break;
      case 'FONT_DESCENT':
        [descent] = ints(parts, 1, text, at);
        bounded('FONT_DESCENT', descent, -MAX_BDF_PIXELS, text, at);
        break;
      // Not used (the line height is FONT_ASCENT + FONT_DESCENT), but a font that claims an absurd size is broken.
      case 'PIXEL_SIZE':
        bounded('PIXEL_SIZE', ints(parts, 1, text, at)[0], 0, text, at);
        break;
      case 'STARTCHAR':
        enc = -1;
        dwidth = 0;
        bbx = undefined;
        break;
      case 'ENCODING':
        [enc] = ints(parts, 1, text, at);
        break;
      case 'DWIDTH':
        [dwidth] = ints(parts, 1, text, at);
        bounded('DWIDTH', dwidth, 0, text, at);
        break;
      case 'BBX': {
        bbx = ints(parts, 4, text, at);
        bounded('BBX x offset', bbx[2], -MAX_BDF_PIXELS, text, at);
        bounded('BBX y offset', bbx[3], -MAX_BDF_PIXELS, text, at);
        break;
      }
      case 'BITMAP': {
        const [w, h, xoff, yoff] = bbx ?? box;
        if (!inRange(w, h))
          throw new BdfError(
            `line ${lineAt(text, at)}: glyph box ${w}x${h} out of range (0..${MAX_BDF_PIXELS} pixels a side)`,
          );
        const rows = Math.min(end + 1, len);
        const after = rowsEnd(text, rows, w, h);
        end = (after >= 0 ? after : checkRows(text, at, w, h)) - 1;
        if (enc >= 0) glyphs.add(enc, rows, dwidth, w, h, xoff, yoff);
        break;
      }
      default:
        break;
    }
  }
  // Without the properties the font box says where the baseline is.
  const asc = ascent ?? box[1] + box[3];
  const desc = descent ?? -box[3];
  if (glyphs.size === 0) throw new BdfError('holds no glyphs');
  if (asc + desc <= 0) throw new BdfError(`has no height (FONT_ASCENT + FONT_DESCENT is ${asc + desc})`);
  bounded('FONT_ASCENT + FONT_DESCENT (the line height)', asc + desc, 1, text, -1);
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
  for (let s = font.pixelSize; s <= max && out.length < 6; s += font.pixelSize) out.push(s);
  return out.length ? out.join(', ') : `${font.pixelSize} (larger than the area)`;
}
