// The glyphs of a BDF font (see bdf.ts for the file's layout), decoded on their first use.
//
// bdf.ts's one pass over the text checks every glyph's bitmap rows (rowsEnd below) and indexes
// the glyph here: six numbers (where its rows start in the text, DWIDTH, BBX w h xoff yoff).
// The text is kept, and a glyph's bits are decoded from it the first time the glyph is asked
// for: a sign shows a few dozen distinct characters of a font's thousands. The text is a latin1
// string as loadBdf reads it, one byte a character, so it is bounded by bdf.ts's MAX_BYTES.

export interface BdfGlyph {
  /** Advance in font pixels. */
  dwidth: number;
  w: number;
  h: number;
  /** Left of the box from the origin, and its bottom above the baseline (negative: below). */
  xoff: number;
  yoff: number;
  /** w*h bits, row-major from the top row: 1 = lit. */
  bits: Uint8Array;
}

const BLOCK_BYTES = 64 * 1024;

/** Nibble value of each character code, -1 for a character that is not hex. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let c = 0; c < 16; c++) NIBBLE['0123456789ABCDEF'.charCodeAt(c)] = NIBBLE['0123456789abcdef'.charCodeAt(c)] = c;

export const blank = (c: number): boolean => c <= 32;

/** Where the line starting at `from` ends (its '\n', or the end of the text). */
export function lineEnd(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e < 0 ? text.length : e;
}

/**
 * Whether text[from, to) is hex of at least `w` bits; with `bits`, also writes them from `at`.
 * The row is already trimmed of blanks.
 */
export function hexRow(text: string, from: number, to: number, w: number, bits?: Uint8Array, at = 0): boolean {
  if ((to - from) * 4 < w) return false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    const nib = c < 128 ? NIBBLE[c] : -1;
    if (nib < 0) return false;
    if (!bits) continue;
    const x0 = (k - from) * 4;
    for (let b = 0; b < 4 && x0 + b < w; b++) bits[at + x0 + b] = (nib >> (3 - b)) & 1;
  }
  return true;
}

// A row: blanks (any code up to space but '\n'), at least n hex digits, blanks, '\n'. The ENDCHAR
// line is trimmed as String.prototype.trim does for latin1 text.
const ROW_BLANK = '[\\x00-\\x09\\x0b-\\x20]*';
const TRIM = '[\\t\\v\\f\\r \\xa0]*';
/** Sticky patterns by n * 512 + h (n hex digits a row, h rows); a few per font, bounded for odd ones. */
const rowPatterns = new Map<number, RegExp>();

/**
 * Checks a glyph's h bitmap rows starting at `from` and the ENDCHAR line after them with one
 * sticky pattern: where the line after ENDCHAR starts, or -1 when they do not match (bdf.ts
 * then finds and names the faulty line). For all of 7x13.bdf's rows this took 2 ms cold and
 * 0.4 ms warm, against 15-20 ms and 1.5 ms to decode them.
 */
export function rowsEnd(text: string, from: number, w: number, h: number): number {
  const n = Math.ceil(w / 4);
  const key = n * 512 + h;
  let re = rowPatterns.get(key);
  if (!re) {
    if (rowPatterns.size >= 64) rowPatterns.clear();
    re = new RegExp(`(?:${ROW_BLANK}[0-9A-Fa-f]{${n},}${ROW_BLANK}\\n){${h}}${TRIM}ENDCHAR${TRIM}(?:\\n|$)`, 'y');
    rowPatterns.set(key, re);
  }
  re.lastIndex = from;
  return re.test(text) ? re.lastIndex : -1;
}

/** A font's glyphs by code point, each decoded from the font's text on its first get and kept. */
export class GlyphTable {
  /** Code point -> where its record starts in `records`; a later glyph of the same code point wins. */
  private readonly index = new Map<number, number>();
  /** Six numbers a glyph: where its bitmap rows start in the text, dwidth, w, h, xoff, yoff. */
  private readonly records: number[] = [];
  private readonly made = new Map<number, BdfGlyph>();
  // The glyphs' bits are views into shared blocks: a buffer of its own per glyph cost an
  // ArrayBuffer and a malloc'd store each (7x13.bdf has 3,226 glyphs).
  private block = new Uint8Array(0);
  private used = 0;

  constructor(private readonly text: string) {}

  /** Indexes a glyph whose rows (checked by rowsEnd) start at `rows`. */
  add(cp: number, rows: number, dwidth: number, w: number, h: number, xoff: number, yoff: number): void {
    this.index.set(cp, this.records.length);
    this.records.push(rows, dwidth, w, h, xoff, yoff);
  }

  get size(): number {
    return this.index.size;
  }

  has(cp: number): boolean {
    return this.index.has(cp);
  }

  /** The glyph's advance without decoding its bits (text is measured character by character). */
  dwidth(cp: number): number | undefined {
    const i = this.index.get(cp);
    return i === undefined ? undefined : this.records[i + 1];
  }

  /** How many glyphs have been decoded so far. */
  get decoded(): number {
    return this.made.size;
  }

  get(cp: number): BdfGlyph | undefined {
    const made = this.made.get(cp);
    if (made) return made;
    const i = this.index.get(cp);
    if (i === undefined) return undefined;
    const g = this.decode(i);
    this.made.set(cp, g);
    return g;
  }

  private decode(i: number): BdfGlyph {
    const r = this.records,
      text = this.text;
    const w = r[i + 2],
      h = r[i + 3];
    const bits = this.carve(w * h);
    for (let row = 0, from = r[i]; row < h; row++) {
      const end = lineEnd(text, from);
      let a = from,
        z = end;
      while (a < z && blank(text.charCodeAt(a))) a++;
      while (z > a && blank(text.charCodeAt(z - 1))) z--;
      hexRow(text, a, z, w, bits, row * w);
      from = end + 1;
    }
    return { dwidth: r[i + 1], w, h, xoff: r[i + 4], yoff: r[i + 5], bits };
  }

  private carve(n: number): Uint8Array {
    if (this.used + n > this.block.length) {
      this.block = new Uint8Array(Math.max(BLOCK_BYTES, n));
      this.used = 0;
    }
    this.used += n;
    return this.block.subarray(this.used - n, this.used);
  }
}
