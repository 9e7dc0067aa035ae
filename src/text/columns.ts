// A line of a value laid out as a table row: its tab-separated cells each in their own column,
// aligned there, and cut at the column's edge rather than drawn into the next one.
import type { Align, DocLine, Span } from './doc.js';
import { isGraphic } from './doc.js';
import { layLine, type LaidLine, type Piece, type StyleEnv } from './lines.js';

export interface Column { width: number; align: Align }

/** A row laid out, and by how many pixels its widest cell was wider than its column (0: none). */
export interface LaidRow { line: LaidLine; overPx: number }

/** The cells of a line: its spans split at each tab (a tab inside a span splits that span). */
export function cellsOf(line: DocLine): DocLine[] {
  const cells: DocLine[] = [{ spans: [] }];
  for (const s of line.spans) {
    if (isGraphic(s)) { cells[cells.length - 1].spans.push(s); continue; }
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
  cell.spans.forEach((s, k) => { if (isGraphic(s)) chars.push({ span: k, ch: '' }); else for (const ch of s.text) chars.push({ span: k, ch }); });
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
  let good = 0, bad = chars.length;
  let best = layLine(prefix(0), env)[0];
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    const l = layLine(prefix(mid), env)[0];
    if (l.width <= width) { good = mid; best = l; } else bad = mid;
  }
  return best;
}

const moved = (p: Piece, dx: number): Piece => ({ ...p, x: p.x + dx });

/**
 * The row of `line` at this size: cell i in column i (cells past the last column are dropped,
 * as is a column's share of a row that has fewer cells). The row is left-aligned: its cells
 * carry their own alignment.
 */
export function layRow(line: DocLine, env: StyleEnv, columns: readonly Column[]): LaidRow {
  const cells = cellsOf(line);
  const base = layLine({ spans: [] }, env)[0];
  const pieces: Piece[] = [];
  const missing = new Set<string>();
  let ascent = base.ascent, descent = base.descent, left = 0, overPx = 0;
  columns.forEach((col, i) => {
    const cell = cells[i];
    if (cell && cell.spans.length) {
      let laid = layLine(cell, env)[0];
      for (const m of laid.missing ?? []) missing.add(m);
      if (laid.width > col.width) {
        overPx = Math.max(overPx, Math.ceil(laid.width - col.width));
        laid = cut(cell, env, col.width);
      }
      const room = col.width - Math.ceil(laid.width);
      const x = left + (col.align === 'center' ? Math.round(room / 2) : col.align === 'right' ? room : 0);
      for (const p of laid.pieces) pieces.push(moved(p, x));
      ascent = Math.max(ascent, laid.ascent);
      descent = Math.max(descent, laid.descent);
    }
    left += col.width;
  });
  const out: LaidLine = { pieces, width: left, ascent, descent, align: 'left' };
  if (missing.size) out.missing = [...missing];
  return { line: out, overPx };
}

/** A row's text as a cache key: its cells' spans (a plain value's row is its text). */
export const rowKey = (line: DocLine): string => JSON.stringify(line.spans);
