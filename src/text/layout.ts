// A value laid out in its area: the size it is drawn at, its lines and pages, and how it
// moves when it does not fit. Computed once per value and size, never per frame.
import type { Align, Rgb } from '../config/types.js';
import { isBitmapFontFile, loadBdf } from './bdf.js';
import type { Doc, DocPage, VAlign } from './doc.js';
import { layLine, type LaidLine, type StyleEnv } from './lines.js';

export type Overflow = 'scroll' | 'pages' | 'scroll-up';
export type FitReport = 'as-is' | 'shrunk' | 'wrapped' | 'paged' | 'scrolled';

export interface BlockOptions {
  width: number;
  height: number;
  font?: string;
  fonts: string[];
  fontSize: number;
  /** fit "shrink": the smallest size tried; undefined: no shrinking. */
  minFontSize?: number;
  wrap: boolean;
  /** Pixels between lines; undefined: 0 (a line's height is its font's own). */
  lineSpacing?: number;
  valign: VAlign;
  align: Align;
  overflow: Overflow;
  pageMs: number;
  crisp: boolean;
  color: Rgb;
  rtl: boolean;
  graphicSize(n: number): { width: number; height: number } | undefined;
}

export interface LaidPage { lines: LaidLine[]; onMs: number; offMs: number; valign: VAlign; height: number }

export interface Layout {
  pages: LaidPage[];
  /** still: one page that fits; pages: shown in turn; scroll: one row moving sideways; scroll-up: all lines moving up. */
  mode: 'still' | 'pages' | 'scroll' | 'scroll-up';
  fit: FitReport;
  /** The font size drawn at. */
  size: number;
  /** The area font drawn with (a smaller bitmap font from `fonts` when shrunk). */
  font?: string;
  lineSpacing: number;
  /** Characters no font has, drawn as gaps. */
  missing: string[];
}

const MAX_CANDIDATES = 40;

const heightOf = (lines: LaidLine[], gap: number): number =>
  lines.reduce((h, l) => h + l.ascent + l.descent, 0) + gap * Math.max(0, lines.length - 1);

/** Fonts and sizes to try, largest first: every size down to minFontSize, or the smaller bitmap fonts of `fonts`. */
function candidates(o: BlockOptions): Array<{ font?: string; size: number }> {
  const first = { font: o.font, size: o.fontSize };
  if (o.minFontSize === undefined) return [first];
  if (o.font && isBitmapFontFile(o.font)) {
    const px = loadBdf(o.font).pixelSize;
    const smaller = o.fonts.filter(isBitmapFontFile).map((f) => ({ f, px: loadBdf(f).pixelSize }))
      .filter((b) => b.px < px).sort((a, b) => b.px - a.px);
    const out = [first];
    for (const b of smaller) {
      // The largest whole multiple of its pixel size not above fontSize.
      const size = Math.floor(o.fontSize / b.px) * b.px;
      if (size >= Math.max(b.px, o.minFontSize) && size < out[out.length - 1].size) out.push({ font: b.f, size });
    }
    return out;
  }
  // At most about 40 sizes are laid out: 1 px apart for any sign, coarser only for huge ranges.
  const min = Math.max(1, o.minFontSize);
  if (min >= o.fontSize) return [first];
  const step = Math.max(1, Math.ceil((o.fontSize - min) / MAX_CANDIDATES));
  const out = [];
  for (let s = o.fontSize; s > min; s -= step) out.push({ font: o.font, size: s });
  out.push({ font: o.font, size: min });
  return out;
}

function env(o: BlockOptions, c: { font?: string; size: number }): StyleEnv {
  return { font: c.font, fonts: o.fonts, size: c.size, crisp: o.crisp, color: o.color, graphicSize: o.graphicSize, rtl: o.rtl };
}

function lay(doc: Doc, o: BlockOptions, c: { font?: string; size: number }, wrap: boolean): LaidLine[][] {
  const e = env(o, c);
  return doc.pages.map((p) => p.lines.flatMap((l) => layLine(l, e, wrap ? o.width : undefined)));
}

/** A single line fits any height (its font box may be taller than the area, as fontSize may be close to it: it is centred and clipped). */
const fitsHeight = (lines: LaidLine[], o: BlockOptions, gap: number): boolean => lines.length <= 1 || heightOf(lines, gap) <= o.height;

function fits(pages: LaidLine[][], o: BlockOptions, gap: number): boolean {
  return pages.every((lines) => lines.every((l) => l.width <= o.width) && fitsHeight(lines, o, gap));
}

function page(src: DocPage, lines: LaidLine[], o: BlockOptions, gap: number): LaidPage {
  return { lines, onMs: src.onMs ?? o.pageMs, offMs: src.offMs ?? 0, valign: src.valign ?? o.valign, height: heightOf(lines, gap) };
}

/** Cuts each document page into pages of as many whole lines as fit the height (at least one). */
function paginate(doc: Doc, laid: LaidLine[][], o: BlockOptions, gap: number): LaidPage[] {
  const out: LaidPage[] = [];
  laid.forEach((lines, i) => {
    let cur: LaidLine[] = [];
    for (const l of lines) {
      if (cur.length && heightOf([...cur, l], gap) > o.height) { out.push(page(doc.pages[i], cur, o, gap)); cur = []; }
      cur.push(l);
    }
    out.push(page(doc.pages[i], cur, o, gap));
  });
  return out;
}

let runs = 0;
/** How many layouts this process has made (a test holds it to one per value and size). */
export const layoutRuns = (): number => runs;

export function layoutBlock(doc: Doc, o: BlockOptions): Layout {
  runs++;
  const gap = o.lineSpacing ?? 0;
  const cands = candidates(o);
  const done = (c: { font?: string; size: number }, laid: LaidLine[][], fit: FitReport, mode: Layout['mode']): Layout => ({
    pages: mode === 'pages' ? paginate(doc, laid, o, gap) : laid.map((l, i) => page(doc.pages[i], l, o, gap)),
    mode, fit, size: c.size, font: c.font, lineSpacing: gap,
    missing: [...new Set(laid.flat().flatMap((l) => l.missing ?? []))],
  });
  const multiPage = doc.pages.length > 1;
  const unwrapped: LaidLine[][][] = [];
  for (const [i, c] of cands.entries()) {
    const laid = lay(doc, o, c, false);
    if (fits(laid, o, gap)) return done(c, laid, i === 0 ? 'as-is' : 'shrunk', multiPage ? 'pages' : 'still');
    unwrapped.push(laid);
  }
  if (o.wrap) {
    for (const [i, c] of cands.entries()) {
      // Wrapping makes at least width / area-width rows of each line: a size that cannot fit even so is not tried.
      if (!unwrapped[i].every((lines) => fitsHeight(lines.flatMap((l) => new Array<LaidLine>(Math.max(1, Math.ceil(l.width / o.width))).fill(l)), o, gap))) continue;
      const laid = lay(doc, o, c, true);
      if (fits(laid, o, gap)) return done(c, laid, 'wrapped', multiPage ? 'pages' : 'still');
    }
  }
  // Nothing fits: the configured size moves (shrinking only ever serves to make a text fit).
  const c = cands[0];
  // Lines moving up are read whole: they are broken at the area's width even without wrap.
  const laid = lay(doc, o, c, o.wrap || o.overflow === 'scroll-up');
  if (o.overflow === 'pages' || multiPage) return done(c, laid, 'paged', 'pages');
  if (o.overflow === 'scroll-up') return done(c, [laid.flat()], 'scrolled', 'scroll-up');
  // Sideways: lines that do not fit the height one above the other run on as one row.
  if (!fitsHeight(laid[0], o, gap)) {
    return done(c, [lay({ pages: [{ lines: [{ spans: doc.pages[0].lines.flatMap((l, k) => (k ? [{ text: '   ', font: 0, spacing: 0 }, ...l.spans] : l.spans)) }] }], multi: doc.multi }, o, c, false)[0]], 'scrolled', 'scroll');
  }
  return done(c, laid, 'scrolled', 'scroll');
}
