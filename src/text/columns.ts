// A line of a value laid out as a table row: its tab-separated cells each in their own column,
// aligned there, and cut at the column's edge rather than drawn into the next one.
import type { Align, DocLine, Span } from './doc.js';
import { isGraphic } from './doc.js';
import { layLine, type LaidLine, type Piece, type StyleEnv } from './lines.js';
import { measure } from './faces.js';

export interface Column {
  width: number;
  align: Align;
  /** Pixels left empty after the column, before the next one. */
  gap?: number;
  /**
   * A mark a cell may end with (a departure board's scheduledMark): in a right or centred column
   * every cell keeps room for it at the column's right edge and the mark is drawn there, so the
   * cells' last digits stay in line whether a cell is marked or not.
   */
  mark?: string;
  /** Digits set on one advance, the widest digit's (a board's times): their places line up in any font. */
  tabular?: boolean;
}

/** A row laid out, and by how many pixels its widest cell was wider than its column (0: none). */
export interface LaidRow {
  line: LaidLine;
  overPx: number;
}

/** A cell laid out in its column's width (cut when it was wider, by overPx). */
export interface LaidCell {
  line: LaidLine;
  overPx: number;
}

/** The cells of a line: its spans split at each tab (a tab inside a span splits that span). */
export function cellsOf(line: DocLine): DocLine[] {
  const cells: DocLine[] = [{ spans: [] }];
  for (const s of line.spans) {
    if (isGraphic(s)) {
      cells[cells.length - 1].spans.push(s);
      continue;
    }
    s.text.split('\t').forEach((part, i) => {
      if (i > 0) cells.push({ spans: [] });
      if (part) cells[cells.length - 1].spans.push({ ...s, text: part });
    });
  }
  return cells;
}

/** The cell cut after as many characters as fit `width` (at least none): laid out at each try, a cell is short. */
function cut(cell: DocLine, env: StyleEnv, width: number): LaidLine {
  // Logical characters of the cell, each with the span it belongs to.
  const chars: Array<{ span: number; ch: string }> = [];
  cell.spans.forEach((s, k) => {
    if (isGraphic(s)) chars.push({ span: k, ch: '' });
    else for (const ch of s.text) chars.push({ span: k, ch });
  });
  const prefix = (n: number): DocLine => {
    const spans: Span[] = [];
    for (let i = 0; i < n; i++) {
      const s = cell.spans[chars[i].span];
      const last = spans[spans.length - 1];
      if (isGraphic(s)) spans.push(s);
      else if (last && !isGraphic(last) && i > 0 && chars[i - 1].span === chars[i].span) last.text += chars[i].ch;
      else spans.push({ ...s, text: chars[i].ch });
    }
    return { spans };
  };
  let good = 0,
    bad = chars.length;
  let best = layLine(prefix(0), env)[0];
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    const l = layLine(prefix(mid), env)[0];
    if (l.width <= width) {
      good = mid;
      best = l;
    } else bad = mid;
  }
  return best;
}

const moved = (p: Piece, dx: number): Piece => ({ ...p, x: p.x + dx });

const DIGITS = [...'0123456789'];

/** The line with each digit centred in the widest digit's advance (a font's proportional digits made tabular). */
function tabular(line: LaidLine): LaidLine {
  const pieces: Piece[] = [];
  let shift = 0;
  for (const p of line.pieces) {
    if (!('text' in p) || p.rtl || p.gap !== undefined || !/\d/.test(p.text)) {
      pieces.push(moved(p, shift));
      continue;
    }
    const digit = Math.max(...DIGITS.map((d) => measure(p.face, d)));
    let x = p.x + shift;
    for (const run of p.text.match(/\d|\D+/g) ?? []) {
      const w = measure(p.face, run);
      const advance = /\d/.test(run) ? digit : w;
      pieces.push({ ...p, x: x + Math.floor((advance - w) / 2), width: w, text: run });
      x += advance;
    }
    shift = x - p.x - p.width;
  }
  return { ...line, pieces, width: line.width + shift };
}

function layCell(cell: DocLine, env: StyleEnv, width: number, digits = false): LaidCell {
  const laid = layLine(cell, env)[0];
  const whole = digits ? tabular(laid) : laid;
  if (whole.width <= width) return { line: whole, overPx: 0 };
  const line = digits ? tabular(cut(cell, env, width)) : cut(cell, env, width);
  if (whole.missing) line.missing = whole.missing;
  return { line, overPx: Math.ceil(whole.width - width) };
}

/** The key of a cell laid out with this env in this width. */
const cellKey = (cell: DocLine, env: StyleEnv, width: number, digits: boolean): string =>
  `${env.font ?? ''}|${env.size}|${env.crisp ? 1 : 0}|` +
  `${env.color.r},${env.color.g},${env.color.b}|${width}|${digits ? 't' : ''}|${JSON.stringify(cell.spans)}`;

/** The cell without its trailing `mark`, and the mark alone in the cell's style (undefined: not marked). */
function splitMark(cell: DocLine, mark: string): { body: DocLine; mark?: DocLine } {
  const last = cell.spans[cell.spans.length - 1];
  if (!last || isGraphic(last) || !last.text.endsWith(mark)) return { body: cell };
  const rest = last.text.slice(0, -mark.length);
  const spans = [...cell.spans.slice(0, -1), ...(rest ? [{ ...last, text: rest }] : [])];
  return { body: { ...cell, spans }, mark: { spans: [{ ...last, text: mark }] } };
}

/** A cell laid out in `width`, from the cache when it holds it. */
function cached(cell: DocLine, env: StyleEnv, width: number, cache?: Map<string, LaidCell>, digits = false): LaidCell {
  const key = cache && cellKey(cell, env, width, digits);
  const hit = key ? cache!.get(key) : undefined;
  const laid = hit ?? layCell(cell, env, width, digits);
  if (key && !hit) cache!.set(key, laid);
  return laid;
}

/**
 * The row of `line` at this size: cell i in column i (cells past the last column are dropped,
 * as is a column's share of a row that has fewer cells). The row is left-aligned: its cells
 * carry their own alignment. `cache` (owned and bounded by the caller) keeps laid-out cells: a
 * board whose countdowns change lays out only the countdown cells again.
 */
export function layRow(
  line: DocLine,
  env: StyleEnv,
  columns: readonly Column[],
  cache?: Map<string, LaidCell>,
): LaidRow {
  const cells = cellsOf(line);
  const pieces: Piece[] = [];
  const missing = new Set<string>();
  let ascent = -1,
    descent = 0,
    left = 0,
    overPx = 0;
  columns.forEach((col, i) => {
    const cell = cells[i];
    if (cell && cell.spans.length) {
      // A left column draws its mark where it falls; the others keep its room at their right edge.
      const hang = col.mark && col.align !== 'left' ? splitMark(cell, col.mark) : { body: cell };
      const markOf =
        hang.mark ?? (col.mark && col.align !== 'left' ? { spans: [{ ...cell.spans[0], text: col.mark }] } : undefined);
      const markPx =
        markOf && !isGraphic(cell.spans[0]) ? Math.ceil(cached(markOf, env, col.width, cache).line.width) : 0;
      const inner = Math.max(0, col.width - markPx);
      const laidCell = cached(hang.body, env, inner, cache, col.tabular);
      const laid = laidCell.line;
      for (const m of laid.missing ?? []) missing.add(m);
      overPx = Math.max(overPx, laidCell.overPx);
      const room = inner - Math.ceil(laid.width);
      const x = left + (col.align === 'center' ? Math.round(room / 2) : col.align === 'right' ? room : 0);
      for (const p of laid.pieces) pieces.push(moved(p, x));
      ascent = Math.max(ascent, laid.ascent);
      descent = Math.max(descent, laid.descent);
      if (hang.mark && markPx) {
        const m = cached(hang.mark, env, markPx, cache).line;
        for (const p of m.pieces) pieces.push(moved(p, x + Math.ceil(laid.width)));
      }
    }
    left += col.width + (col.gap ?? 0);
  });
  if (ascent < 0) {
    // No cell: an empty row as tall as the font's.
    const empty = layLine({ spans: [] }, env)[0];
    ascent = empty.ascent;
    descent = empty.descent;
  }
  const out: LaidLine = { pieces, width: left, ascent, descent, align: 'left' };
  if (missing.size) out.missing = [...missing];
  return { line: out, overPx };
}
