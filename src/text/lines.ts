// One line of a document at one size: styled, measured, broken at the area's width
// (UAX #14, the linebreak package) and put in visual order (UAX #9, bidi-js).
import type { Bidi } from 'bidi-js';
import type LineBreakerType from 'linebreak';
import type { Rgb } from '../frame.js';
import type { Align } from './doc.js';
import { isGraphic, type DocLine } from './doc.js';
import { bitmapFace, bitmapHas, cells, faceFor, measure, vectorFace, type Face } from './faces.js';
import { rightBearing } from './char-gap.js';
import { fallbackFiles } from './fonts.js';
import { requireCjs } from '../util/require-cjs.js';
import { isBitmapFontFile, loadBdf, bitmapScale } from './bdf.js';
import { covered } from './coverage.js';

// bidi-js (about 6 MB of tables once loaded) and linebreak are loaded the first time a text
// needs them: a service that shows only left-to-right text it does not wrap never pays for them.
let bidiInstance: Bidi | undefined;
function bidiJs(): Bidi {
  if (!bidiInstance) {
    const mod = requireCjs('bidi-js') as { default?: () => Bidi } | (() => Bidi);
    bidiInstance = (typeof mod === 'function' ? mod : mod.default!)();
  }
  return bidiInstance;
}
const lineBreaker = (): typeof LineBreakerType => requireCjs('linebreak') as typeof LineBreakerType;

/** Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, NKo...) and their presentation forms. */
const MAYBE_RTL =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}\u200f\u202b\u202e\u2067]/u;
/** Stands for an inline graphic in the line's string, so breaking and bidi see an object. */
const OBJECT = '\uFFFC';

export interface StyleEnv {
  font?: string;
  fonts: string[];
  size: number;
  crisp: boolean;
  color: Rgb;
  /** Pixel size of graphic n (1-based); undefined when it cannot be read. */
  graphicSize(n: number): { width: number; height: number } | undefined;
  /** Paragraph direction (from the whole value's first strong character). */
  rtl: boolean;
}

export interface TextPiece {
  x: number;
  width: number;
  text: string;
  face: Face;
  color: Rgb;
  rtl: boolean;
  /** [sc<n>]: characters drawn to their ink, n px apart (char-gap.ts). */
  gap?: number;
}
export interface GraphicPiece {
  x: number;
  width: number;
  graphic: number;
  height: number;
}
export type Piece = TextPiece | GraphicPiece;

export interface LaidLine {
  pieces: Piece[];
  width: number;
  ascent: number;
  descent: number;
  align?: Align;
  /** Characters no font of the chain has, drawn as gaps (on the first line of a document line). */
  missing?: string[];
}

interface Style {
  face?: Face;
  fallback?: Face;
  color: Rgb;
  gap?: number;
  graphic?: number;
}

/** A line's string with, per UTF-16 unit, the style it is drawn in. */
interface Logical {
  str: string;
  style: Uint16Array;
  styles: Style[];
  base: Face;
  missing: Set<string>;
}

const NOT_ASCII = /[^ -~\t\n\r]/;

/** `text` with every character no font can draw replaced by a space (a gap, never a hex box). */
function gaps(text: string, face: Face, missing: Set<string>): string {
  // Plain ASCII in a TrueType face is the default font's; only other characters are looked up.
  if (face.kind === 'vector' && !NOT_ASCII.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const inBitmap = face.kind === 'bitmap' && bitmapHas(face, ch);
    const chain = face.kind === 'vector' && face.file ? [face.file, ...fallbackFiles()] : fallbackFiles();
    if (inBitmap || covered(ch, chain)) out += ch;
    else {
      missing.add(ch);
      out += ' ';
    }
  }
  return out;
}

function spanFace(env: StyleEnv, n: number): Face {
  const file = n === 0 ? env.font : env.fonts[n - 1];
  if (n > 0 && file && isBitmapFontFile(file)) {
    // A second bitmap font takes the area's size when it can, else its own pixel size.
    const bdf = loadBdf(file);
    return bitmapFace(bdf, bitmapScale(bdf, env.size) ? env.size : bdf.pixelSize);
  }
  return faceFor(file, env.size, env.crisp);
}

function logical(line: DocLine, env: StyleEnv, base: Face): Logical {
  let str = '';
  const missing = new Set<string>();
  const styles: Style[] = [];
  const marks: number[] = [];
  for (const s of line.spans) {
    if (isGraphic(s)) {
      styles.push({ color: env.color, graphic: s.graphic });
      str += OBJECT;
      marks.push(styles.length - 1);
      continue;
    }
    const face = s.font === 0 ? base : spanFace(env, s.font);
    // Characters a bitmap font lacks come from the TrueType chain, crisp, at the same height.
    const fallback = face.kind === 'bitmap' ? vectorFace(undefined, face.size, true) : undefined;
    styles.push({ face, fallback, color: s.color ?? env.color, ...(s.gap !== undefined ? { gap: s.gap } : {}) });
    const text = gaps(s.text, face, missing);
    str += text;
    for (let i = 0; i < text.length; i++) marks.push(styles.length - 1);
  }
  return { str, style: Uint16Array.from(marks), styles, base, missing };
}

/** Face a character is drawn in: its span's, or the fallback for a glyph a bitmap font lacks. */
function faceAt(l: Logical, i: number): { face: Face | undefined; key: number } {
  const st = l.styles[l.style[i]];
  if (st.face?.kind === 'bitmap' && st.fallback) {
    const cp = l.str.codePointAt(i)!;
    // The low half of a surrogate pair goes with its high half.
    const ch = cp >= 0xdc00 && cp <= 0xdfff && i > 0 ? l.str.slice(i - 1, i + 1) : String.fromCodePoint(cp);
    if (!bitmapHas(st.face, ch)) return { face: st.fallback, key: l.style[i] * 2 + 1 };
  }
  return { face: st.face, key: l.style[i] * 2 };
}

/**
 * Pixels [sc] puts before character i of a row (not the row's first) beyond what the
 * characters' own advances give: a spaced character stands its gap after the ink before it (so
 * the bearing the character before leaves is taken back), and a character after a spaced one
 * gets that bearing back, as the font spaces it.
 */
function joint(l: Logical, i: number): number {
  const cur = l.styles[l.style[i]],
    prev = l.styles[l.style[i - 1]];
  const spaced = cur.gap !== undefined && cur.graphic === undefined;
  if (!spaced && prev.gap === undefined) return 0;
  let bearing = 0;
  const { face } = faceAt(l, i - 1);
  if (prev.graphic === undefined && face) {
    const lowHalf = i > 1 && l.str.charCodeAt(i - 1) >= 0xdc00 && l.str.charCodeAt(i - 1) <= 0xdfff;
    for (const c of cells(face, l.str.slice(lowHalf ? i - 2 : i - 1, i))) bearing = rightBearing(c);
  }
  if (spaced) return cur.gap! - (prev.gap === undefined ? bearing : 0);
  return bearing;
}

function width(l: Logical, a: number, b: number, env: StyleEnv): number {
  let w = 0;
  let i = a;
  while (i < b) {
    const { face, key } = faceAt(l, i);
    let j = i + 1;
    while (j < b && faceAt(l, j).key === key) j++;
    const st = l.styles[l.style[i]];
    if (st.graphic !== undefined) w += (env.graphicSize(st.graphic)?.width ?? 0) * (j - i);
    else if (face) w += measure(face, l.str.slice(i, j), st.gap);
    if (i > a) w += joint(l, i);
    i = j;
  }
  return w;
}

const trimEnd = (s: string, a: number, b: number): number => {
  while (b > a && /\s/.test(s[b - 1])) b--;
  return b;
};

/**
 * The largest n in [lo + 1, hi - 1] for which ok(n) holds, lo when none does; ok(hi) is known
 * false and holds for every n below one that it holds for. Tried first at `hint` and its
 * neighbour, then at doubling distances, then halving: two calls when the hint is right.
 */
function largestOk(lo: number, hi: number, hint: number, ok: (n: number) => boolean): number {
  let good = lo,
    bad = hi;
  const first = Math.min(bad - 1, Math.max(good + 1, hint));
  if (first <= good) return good;
  if (ok(first)) {
    good = first;
    for (let d = 1; good + d < bad; d *= 2) {
      if (ok(good + d)) good += d;
      else bad = good + d;
    }
  } else {
    bad = first;
    for (let d = 1; bad - d > good; d *= 2) {
      if (ok(bad - d)) good = bad - d;
      else bad -= d;
    }
  }
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (ok(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/**
 * [start, end) ranges of the line broken to at most `max` px each (a word wider than that is cut
 * between characters), at most `rows` of them. Each row takes as many break opportunities as
 * fit, searched from the count the row before took: a few measurements a row, where measuring
 * at every opportunity made hundreds for a long value.
 */
function wrap(l: Logical, max: number, env: StyleEnv, rows: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const breaks: number[] = [];
  const breaker = new (lineBreaker())(l.str);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) breaks.push(bk.position);
  let start = 0;
  let words = 1,
    chars = 1;
  const cutLong = (end: number) => {
    // [start, end) is one word wider than max: cut it after the most characters that fit (at least one).
    const ends: number[] = [];
    for (let k = start; k < end;) {
      k += l.str.codePointAt(k)! > 0xffff ? 2 : 1;
      ends.push(k);
    }
    const n = Math.max(
      1,
      largestOk(0, ends.length, chars, (m) => width(l, start, ends[m - 1], env) <= max),
    );
    chars = n;
    out.push([start, ends[n - 1]]);
    start = ends[n - 1];
  };
  const rowTo = (k: number) => trimEnd(l.str, start, breaks[k]);
  for (let b = 0; b < breaks.length && out.length < rows;) {
    if (breaks[b] <= start) {
      b++;
      continue;
    }
    // Break opportunities up to `last` fit on this row.
    const last = largestOk(b - 1, breaks.length, b + words - 1, (k) => width(l, start, rowTo(k), env) <= max);
    if (last >= b) {
      words = last - b + 1;
      out.push([start, rowTo(last)]);
      start = breaks[last];
    } else cutLong(rowTo(b));
  }
  if ((start < l.str.length && out.length < rows) || out.length === 0)
    out.push([start, trimEnd(l.str, start, l.str.length)]);
  return out;
}

function mirrorReverse(s: string): string {
  const bidi = bidiJs();
  return Array.from(s)
    .reverse()
    .map((c) => bidi.getMirroredCharacter(c) ?? c)
    .join('');
}

/** The range [a, b) of the line as pieces in visual order, left to right. */
function visual(l: Logical, a: number, b: number, env: StyleEnv, align: Align | undefined): LaidLine {
  const text = l.str.slice(a, b);
  // Without a right-to-left character in a left-to-right paragraph, visual order is logical order.
  const plain = !env.rtl && !MAYBE_RTL.test(text);
  const levels = plain
    ? { levels: new Uint8Array(text.length), paragraphs: [] }
    : bidiJs().getEmbeddingLevels(text, env.rtl ? 'rtl' : 'ltr');
  const order = plain ? Array.from({ length: text.length }, (_, i) => i) : bidiJs().getReorderedIndices(text, levels);
  const pieces: Piece[] = [];
  let ascent = l.base.ascent,
    descent = l.base.descent,
    x = 0;
  for (let k = 0; k < order.length;) {
    const i0 = order[k];
    const rtl = (levels.levels[i0] & 1) === 1;
    const { face, key } = faceAt(l, a + i0);
    let m = k + 1;
    while (
      m < order.length &&
      order[m] === order[m - 1] + (rtl ? -1 : 1) &&
      faceAt(l, a + order[m]).key === key &&
      ((levels.levels[order[m]] & 1) === 1) === rtl
    )
      m++;
    const lo = Math.min(order[k], order[m - 1]),
      hi = Math.max(order[k], order[m - 1]) + 1;
    const st = l.styles[l.style[a + lo]];
    if (k > 0 && lo > 0) x += joint(l, a + lo);
    const w = width(l, a + lo, a + hi, env);
    if (st.graphic !== undefined) {
      const h = env.graphicSize(st.graphic)?.height ?? 0;
      for (let g = lo; g < hi; g++)
        pieces.push({ x: x + (g - lo) * (w / (hi - lo)), width: w / (hi - lo), graphic: st.graphic, height: h });
      ascent = Math.max(ascent, h);
    } else if (face) {
      const logicalText = text.slice(lo, hi);
      // pango orders a right-to-left run itself; bitmap glyphs are placed here, so they get it reversed and mirrored.
      const shown = rtl && face.kind === 'bitmap' ? mirrorReverse(logicalText) : logicalText;
      pieces.push({
        x,
        width: w,
        text: shown,
        face,
        color: st.color,
        rtl,
        ...(st.gap !== undefined ? { gap: st.gap } : {}),
      });
      // A glyph borrowed for a bitmap font keeps that font's line box: the pixel rows stay where they are.
      if (face === st.face) {
        ascent = Math.max(ascent, face.ascent);
        descent = Math.max(descent, face.descent);
      }
    }
    x += w;
    k = m;
  }
  return { pieces, width: x, ascent, descent, align };
}

/**
 * The lines a document line becomes at this size (several when wrapped at `wrapAt` px). With
 * `within`, wrapping stops at the first row that cannot be in that height (each row is at least
 * the font's height): fitting wants to know only whether the rows fit, and a long value at a
 * size far too large would otherwise be wrapped whole to learn that it does not.
 */
export function layLine(
  line: DocLine,
  env: StyleEnv,
  wrapAt?: number,
  within?: { height: number; gap: number },
): LaidLine[] {
  const base = spanFace(env, 0);
  const l = logical(line, env, base);
  const rows = within
    ? Math.max(2, Math.floor((within.height + within.gap) / (Math.max(1, base.ascent + base.descent) + within.gap)) + 1)
    : Infinity;
  const ranges =
    wrapAt === undefined ? [[0, trimEnd(l.str, 0, l.str.length)] as [number, number]] : wrap(l, wrapAt, env, rows);
  const lines = ranges.map(([a, b]) => visual(l, a, b, env, line.align));
  if (l.missing.size) lines[0].missing = [...l.missing];
  return lines;
}

/** Whether some character of `text` has no font in the chain (so it must be laid out, as a gap). */
export function hasMissing(text: string, font: string | undefined): boolean {
  if (!NOT_ASCII.test(text)) return false;
  const chain = font ? [font, ...fallbackFiles()] : fallbackFiles();
  for (const ch of text) if (!covered(ch, chain)) return true;
  return false;
}

/** Whether a text's first strong character is right-to-left (Hebrew, Arabic). */
export function startsRtl(text: string): boolean {
  if (!MAYBE_RTL.test(text)) return false;
  const bidi = bidiJs();
  for (const ch of text) {
    const t = bidi.getBidiCharTypeName(ch);
    if (t === 'L') return false;
    if (t === 'R' || t === 'AL') return true;
  }
  return false;
}
