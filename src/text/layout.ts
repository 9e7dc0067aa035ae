// A value laid out in its area: the size it is drawn at, its lines and pages, and how it
// moves when it does not fit. Computed once per value and size, never per frame.
import type { Rgb } from '../frame.js';
import type { Align } from './doc.js';
import type { Doc, DocPage, VAlign } from './doc.js';
import { MeasureLimit, measureWithin, measuredUnits } from './faces.js';
import { layLine, type LaidLine, type StyleEnv } from './lines.js';
import { layRow, type Column, type LaidCell } from './columns.js';
import { layParts } from './line-parts.js';
import { candidates, indexAtOrBelow, largestFitting, type Candidate } from './fit-sizes.js';

export type Overflow = 'scroll' | 'pages' | 'scroll-up';
export type FitReport = 'as-is' | 'shrunk' | 'wrapped' | 'paged' | 'scrolled' | 'clipped';

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
  /** Measuring units fitting may spend below the configured size (FIT_BUDGET when undefined). */
  fitBudget?: number;
  /** Lines are table rows, tab-separated cells in these columns (columns.ts); no wrap, no sideways scroll. */
  columns?: readonly Column[];
  /** Table cells already laid out (columns.ts layRow): owned by the caller, who bounds it. */
  cellCache?: Map<string, LaidCell>;
}

export interface LaidPage {
  lines: LaidLine[];
  onMs: number;
  offMs: number;
  valign: VAlign;
  height: number;
}

export interface Layout {
  pages: LaidPage[];
  /**
   * still: one page that fits; pages: shown in turn; scroll: one row moving sideways; scroll-up: all lines moving up.
   */
  mode: 'still' | 'pages' | 'scroll' | 'scroll-up';
  fit: FitReport;
  /** The font size drawn at. */
  size: number;
  /** The area font drawn with (a smaller bitmap font from `fonts` when shrunk). */
  font?: string;
  lineSpacing: number;
  /** Characters no font has, drawn as gaps. */
  missing: string[];
  /** fit "clipped": how many pixels of the widest line are cut at the area's edge. */
  clippedPx?: number;
}

/**
 * What fitting (fit "shrink") may measure for one value beyond its layouts at the configured
 * size, in measuring units (faces.ts): about 15 ms of CPU here. Counted in units, not
 * milliseconds, so a value always fits the same way whatever else the machine is doing.
 */
export const FIT_BUDGET = 20_000;

const heightOf = (lines: LaidLine[], gap: number): number =>
  lines.reduce((h, l) => h + l.ascent + l.descent, 0) + gap * Math.max(0, lines.length - 1);

function env(o: BlockOptions, c: { font?: string; size: number }): StyleEnv {
  return {
    font: c.font,
    fonts: o.fonts,
    size: c.size,
    crisp: o.crisp,
    color: o.color,
    graphicSize: o.graphicSize,
    rtl: o.rtl,
  };
}

/** Each line of each page laid out; `within`: wrapped rows only until they overflow the area (fitting). */
function lay(
  doc: Doc,
  o: BlockOptions,
  c: { font?: string; size: number },
  wrap: boolean,
  within?: { height: number; gap: number },
): LaidLine[][] {
  const e = env(o, c);
  // A line of left, centre and right parts is one row across the area: it is not wrapped.
  return doc.pages.map((p) =>
    p.lines.flatMap((l) =>
      l.parts ? [layParts(l, e, o.width, o.align)] : layLine(l, e, wrap ? o.width : undefined, within),
    ),
  );
}

/**
 * A single line fits any height (its font box may be taller than the area, as fontSize may be close to it: it is
 * centred and clipped).
 */
const fitsHeight = (lines: LaidLine[], o: BlockOptions, gap: number): boolean =>
  lines.length <= 1 || heightOf(lines, gap) <= o.height;

function fits(pages: LaidLine[][], o: BlockOptions, gap: number): boolean {
  return pages.every((lines) => lines.every((l) => l.width <= o.width) && fitsHeight(lines, o, gap));
}

function page(src: DocPage, lines: LaidLine[], o: BlockOptions, gap: number): LaidPage {
  return {
    lines,
    onMs: src.onMs ?? o.pageMs,
    offMs: src.offMs ?? 0,
    valign: src.valign ?? o.valign,
    height: heightOf(lines, gap),
  };
}

/** Cuts each document page into pages of as many whole lines as fit the height (at least one). */
function paginate(doc: Doc, laid: LaidLine[][], o: BlockOptions, gap: number): LaidPage[] {
  const out: LaidPage[] = [];
  laid.forEach((lines, i) => {
    let cur: LaidLine[] = [];
    for (const l of lines) {
      if (cur.length && heightOf([...cur, l], gap) > o.height) {
        out.push(page(doc.pages[i], cur, o, gap));
        cur = [];
      }
      cur.push(l);
    }
    out.push(page(doc.pages[i], cur, o, gap));
  });
  return out;
}

let runs = 0;
/** How many layouts this process has made (a test holds it to one per value and size). */
export const layoutRuns = (): number => runs;

/** Every line of every page run on as one row, three spaces apart: a text that scrolls sideways. */
function runOn(doc: Doc): Doc {
  const lines = doc.pages.flatMap((p) => p.lines);
  return {
    pages: [{ lines: [{ spans: lines.flatMap((l, k) => (k ? [{ text: '   ', font: 0 }, ...l.spans] : l.spans)) }] }],
    multi: doc.multi,
  };
}

/** How much smaller than `size` a text must be for its widest line and its height to fit, as measured at that size. */
function shrinkRatio(laid: LaidLine[][], o: BlockOptions, gap: number): number {
  let r = Infinity;
  for (const lines of laid) {
    for (const l of lines) if (l.width > 0) r = Math.min(r, o.width / l.width);
    if (lines.length > 1) r = Math.min(r, o.height / heightOf(lines, gap));
  }
  return r;
}

/**
 * The same for wrapped text: it cannot take less room than its unwrapped lines' areas added
 * up, and rows wrapped at word ends leave some of each row empty (about a tenth, measured on
 * destinations and notices from 120 to 1300 characters).
 */
function wrapRatio(laid: LaidLine[][], o: BlockOptions): number {
  let r = Infinity;
  for (const lines of laid) {
    const room = lines.reduce((a, l) => a + l.width * (l.ascent + l.descent), 0);
    if (room > 0) r = Math.min(r, 0.9 * Math.sqrt((o.width * o.height) / room));
  }
  return r;
}

/** Each line of each page as a table row; `over`: how far the widest cell overran its column. */
function layRows(doc: Doc, o: BlockOptions, c: Candidate): { laid: LaidLine[][]; over: number } {
  const e = env(o, c);
  let over = 0;
  const laid = doc.pages.map((p) =>
    p.lines.map((l) => {
      const row = layRow(l, e, o.columns!, o.cellCache);
      over = Math.max(over, row.overPx);
      return row.line;
    }),
  );
  return { laid, over };
}

/**
 * A table (columns): the largest size at which every cell fits its column and the rows the
 * height (fit "shrink"), else the configured size with cells cut at their column's edge. Rows
 * beyond the height move up under overflow "scroll-up", else page (a table does not scroll sideways).
 */
function layoutTable(doc: Doc, o: BlockOptions, cands: Candidate[], gap: number, done: Done): Layout {
  const tall = (laid: LaidLine[][]) => !laid.every((lines) => fitsHeight(lines, o, gap));
  const still = doc.pages.length > 1 ? 'pages' : 'still';
  const { laid, over } = layRows(doc, o, cands[0]);
  if (over === 0 && !tall(laid)) return done(cands[0], laid, 'as-is', still);
  const tried = new Map<number, LaidLine[][]>();
  let left = o.fitBudget ?? FIT_BUDGET;
  const ok = (k: number): boolean => {
    const before = measuredUnits();
    try {
      const r = measureWithin(left, () => layRows(doc, o, cands[k]));
      tried.set(k, r.laid);
      return r.over === 0 && !tall(r.laid);
    } finally {
      left -= measuredUnits() - before;
    }
  };
  try {
    const i = largestFitting(cands.length, ok, 1);
    if (i !== undefined) return done(cands[i], tried.get(i)!, 'shrunk', still);
  } catch (err) {
    if (!(err instanceof MeasureLimit)) throw err;
  }
  const shown =
    o.overflow === 'scroll-up' && tall(laid)
      ? done(cands[0], [laid.flat()], 'scrolled', 'scroll-up')
      : done(cands[0], laid, tall(laid) ? 'paged' : 'as-is', tall(laid) ? 'pages' : still);
  return over > 0 ? { ...shown, fit: 'clipped', clippedPx: over } : shown;
}

type Done = (c: Candidate, laid: LaidLine[][], fit: FitReport, mode: Layout['mode']) => Layout;

export function layoutBlock(doc: Doc, o: BlockOptions): Layout {
  runs++;
  const gap = o.lineSpacing ?? 0;
  const cands = candidates(o);
  const done: Done = (c, laid, fit, mode) => ({
    pages: mode === 'pages' ? paginate(doc, laid, o, gap) : laid.map((l, i) => page(doc.pages[i], l, o, gap)),
    mode,
    fit,
    size: c.size,
    font: c.font,
    lineSpacing: gap,
    missing: [...new Set(laid.flat().flatMap((l) => l.missing ?? []))],
  });
  if (o.columns?.length) return layoutTable(doc, o, cands, gap, done);
  const multiPage = doc.pages.length > 1;
  const settled = multiPage ? 'pages' : 'still';
  // Each size is laid out at most once each way: one row a line, wrapped until the rows
  // overflow (to see whether they fit), wrapped whole. Sizes below the configured one draw on
  // the budget, and a layout that would overdraw it is abandoned as it does.
  type Way = 'line' | 'fit' | 'wrap';
  const laidOut = new Map<string, LaidLine[][]>();
  let left = o.fitBudget ?? FIT_BUDGET;
  const at = (i: number, way: Way): LaidLine[][] => {
    let laid = laidOut.get(`${i}${way}`);
    if (laid) return laid;
    const make = () => lay(doc, o, cands[i], way !== 'line', way === 'fit' ? { height: o.height, gap } : undefined);
    const before = measuredUnits();
    try {
      laid = i === 0 ? make() : measureWithin(left, make);
    } finally {
      if (i > 0) left -= measuredUnits() - before;
    }
    laidOut.set(`${i}${way}`, laid);
    return laid;
  };
  const s0 = cands[0].size;
  const oneRow = () =>
    doc.pages.length === 1 && doc.pages[0].lines.length === 1 ? at(0, 'line') : lay(runOn(doc), o, cands[0], false);
  const unwrapped = at(0, 'line');
  if (fits(unwrapped, o, gap)) return done(cands[0], unwrapped, 'as-is', settled);
  try {
    const i = largestFitting(
      cands.length,
      (k) => fits(at(k, 'line'), o, gap),
      indexAtOrBelow(cands, s0 * shrinkRatio(unwrapped, o, gap)),
    );
    if (i !== undefined) return done(cands[i], at(i, 'line'), 'shrunk', settled);
    if (o.wrap) {
      // Rows that fit were wrapped whole: a layout stopped short never fits.
      const wraps = (k: number) => fits(at(k, 'fit'), o, gap);
      if (wraps(0)) return done(cands[0], at(0, 'fit'), 'wrapped', settled);
      const j = largestFitting(cands.length, wraps, indexAtOrBelow(cands, s0 * wrapRatio(unwrapped, o)));
      if (j !== undefined) return done(cands[j], at(j, 'fit'), 'wrapped', settled);
    }
  } catch (err) {
    if (!(err instanceof MeasureLimit)) throw err;
    // Out of budget: the configured size scrolls, all of it in one row (or moving up, broken at the area's width).
    if (o.overflow === 'scroll-up') return done(cands[0], [at(0, 'wrap').flat()], 'scrolled', 'scroll-up');
    return done(cands[0], oneRow(), 'scrolled', 'scroll');
  }
  // Nothing fits: the configured size moves (shrinking only ever serves to make a text fit).
  const c = cands[0];
  // Lines moving up are read whole: they are broken at the area's width even without wrap.
  const laid = at(0, o.wrap || o.overflow === 'scroll-up' ? 'wrap' : 'line');
  if (o.overflow === 'pages' || multiPage) {
    // Pages without wrap: a line wider than the area is cut at its edge, and says by how much.
    const over = Math.ceil(Math.max(0, ...laid.flat().map((l) => l.width - o.width)));
    return over > 0 ? { ...done(c, laid, 'clipped', 'pages'), clippedPx: over } : done(c, laid, 'paged', 'pages');
  }
  if (o.overflow === 'scroll-up') return done(c, [laid.flat()], 'scrolled', 'scroll-up');
  // Sideways: lines that do not fit the height one above the other run on as one row.
  if (!fitsHeight(laid[0], o, gap)) return done(c, oneRow(), 'scrolled', 'scroll');
  return done(c, laid, 'scrolled', 'scroll');
}
