// A font at one size, as layout sees it: how tall a line is and how wide a text is.
import { createCanvas } from 'canvas';
import { cssFont } from './fonts.js';
import { bitmapScale, bitmapSizes, isBitmapFontFile, loadBdf, type BitmapFont } from './bdf.js';
import { bitmapCell, gappedWidth, vectorCell, type Cell } from './char-gap.js';

export interface BitmapFace {
  kind: 'bitmap';
  font: BitmapFont;
  /** Each font pixel is drawn as a scale x scale block. */
  scale: number;
  size: number;
  ascent: number;
  descent: number;
}

export interface VectorFace {
  kind: 'vector';
  /** Absolute .ttf/.otf path; undefined: the default font. */
  file?: string;
  size: number;
  /** antialias "none": two colours only. */
  crisp: boolean;
  css: string;
  ascent: number;
  descent: number;
}

export type Face = BitmapFace | VectorFace;

const measureCtx = createCanvas(1, 1).getContext('2d');

/** A face that cannot be used at the size asked for (a bitmap font at a size that is not a multiple). */
export class FaceError extends Error {}

/**
 * Faces made so far, by CSS font and crispness. A face's line box is a pango call (about 45 us
 * here), and every line of every layout asks for its faces, a bitmap span for its TrueType
 * fallback too: a command's text, laid out to check that it fits and again to draw it, spent
 * about half of its 350 us on them. A CSS font names the registered family of its file, and
 * registration is once per file and process, so a face never goes stale. The sizes and files a
 * configuration and its commands name are few; the bound is for the rest.
 */
const faces = new Map<string, VectorFace>();
const MAX_FACES = 256;

export function vectorFace(file: string | undefined, size: number, crisp: boolean): VectorFace {
  const css = cssFont(size, file);
  const key = crisp ? `c${css}` : css;
  const made = faces.get(key);
  if (made && made.file === file) return made;
  measureCtx.font = css;
  const m = measureCtx.measureText('Hg');
  const face: VectorFace = {
    kind: 'vector',
    file,
    size,
    crisp,
    css,
    ascent: Math.ceil(m.emHeightAscent),
    descent: Math.ceil(m.emHeightDescent),
  };
  if (faces.size >= MAX_FACES) faces.clear();
  faces.set(key, face);
  return face;
}

export function bitmapFace(font: BitmapFont, size: number, maxSize = 4000): BitmapFace {
  const scale = bitmapScale(font, size);
  if (!scale)
    throw new FaceError(
      `fontSize ${size} does not suit the bitmap font ${font.file.split('/').pop()}: use its pixel size or a ` +
        `whole multiple (${bitmapSizes(font, maxSize)})`,
    );
  return { kind: 'bitmap', font, scale, size, ascent: font.ascent * scale, descent: font.descent * scale };
}

/** The face for an area font file (TrueType or BDF) at `size` px. */
export function faceFor(file: string | undefined, size: number, crisp: boolean, maxSize?: number): Face {
  if (file && isBitmapFontFile(file)) return bitmapFace(loadBdf(file), size, maxSize);
  return vectorFace(file, size, crisp);
}

/**
 * Measuring is what laying text out costs: with pango about 45 us a call and 0.5-1 us a
 * character here, a bitmap font about 0.1 us a character. Counted in units (a TrueType
 * character one, a TrueType call MEASURE_CALL_UNITS more, eight bitmap characters one), a
 * budget of them bounds the time whatever the mix of fonts and of short and long strings.
 */
export const MEASURE_CALL_UNITS = 64;
let measured = 0;
let limit = Infinity;

/** Thrown by measure() past the units measureWithin allowed. */
export class MeasureLimit extends Error {}

/** Runs `fn`, which may measure `units` units; past that measure() throws MeasureLimit. */
export function measureWithin<T>(units: number, fn: () => T): T {
  const outer = limit;
  limit = Math.min(outer, measured + units);
  try {
    return fn();
  } finally {
    limit = outer;
  }
}

/** Units measured by this process so far. */
export const measuredUnits = (): number => measured;

/** Advance width of `text` in a face; with `gap`, its characters' ink `gap` px apart (char-gap.ts). */
export function measure(face: Face, text: string, gap?: number): number {
  if (gap !== undefined) return gappedWidth(cells(face, text), gap);
  measured += face.kind === 'bitmap' ? Math.ceil(text.length / 8) : text.length + MEASURE_CALL_UNITS;
  if (measured > limit) throw new MeasureLimit();
  if (face.kind === 'bitmap') {
    let w = 0;
    for (const ch of text) w += (face.font.glyphs.dwidth(ch.codePointAt(0)!) ?? 0) * face.scale;
    return w;
  }
  measureCtx.font = face.css;
  return measureCtx.measureText(text).width;
}

/** Whether a bitmap face draws `ch` itself (the rest comes from the TrueType fallback chain). */
export const bitmapHas = (face: BitmapFace, ch: string): boolean => face.font.glyphs.has(ch.codePointAt(0)!);

/** Each character of `text` as [sc] draws it; a TrueType character is a measuring call of its own. */
export function* cells(face: Face, text: string): Generator<Cell> {
  for (const ch of text) {
    measured += face.kind === 'bitmap' ? 1 : 1 + MEASURE_CALL_UNITS;
    if (measured > limit) throw new MeasureLimit();
    yield face.kind === 'bitmap'
      ? bitmapCell(face.font, face.scale, ch.codePointAt(0)!)
      : vectorCell(face.css, face.crisp, ch);
  }
}
