// A line of several justifications: MULTI (NTCIP 1203) [jl2] left, [jl3] centre and [jl4]
// right text on one line. Each part is laid out on its own and placed across the area's width
// as the standard places it: the left part at the left edge, the right part ending at the
// right edge, the centre part centred in the width whatever stands beside it. Parts never
// overlap: a line whose parts need more than the width is laid out as wide as they need
// (so it does not fit, and fitting shrinks it or the value is refused).
import type { Align, DocLine } from './doc.js';
import { layLine, type LaidLine, type StyleEnv } from './lines.js';

/** The width a line's parts need: the centre part centred with room for the wider side part on each side. */
export function partsWidth(left: number, centre: number, right: number): number {
  return centre > 0 ? centre + 2 * Math.max(left, right) : left + right;
}

/**
 * One laid line holding every part of `line` (line.parts set) at its place in `width` px; `align`: the area's, for a
 * part without its own.
 */
export function layParts(line: DocLine, env: StyleEnv, width: number, align: Align): LaidLine {
  const laid = { left: [] as LaidLine[], center: [] as LaidLine[], right: [] as LaidLine[] };
  for (const p of line.parts ?? []) laid[p.align ?? align].push(layLine({ spans: p.spans }, env)[0]);
  const w = (a: keyof typeof laid) => laid[a].reduce((s, l) => s + l.width, 0);
  const [L, C, R] = [w('left'), w('center'), w('right')];
  const total = Math.max(width, partsWidth(L, C, R));
  const out: LaidLine = { pieces: [], width: total, ascent: 0, descent: 0, align: 'left' };
  const missing = new Set<string>();
  const put = (lines: LaidLine[], x: number) => {
    for (const l of lines) {
      for (const p of l.pieces) out.pieces.push({ ...p, x: p.x + x });
      out.ascent = Math.max(out.ascent, l.ascent);
      out.descent = Math.max(out.descent, l.descent);
      for (const m of l.missing ?? []) missing.add(m);
      x += l.width;
    }
  };
  put(laid.left, 0);
  put(laid.center, Math.round((total - C) / 2));
  put(laid.right, total - R);
  if (missing.size) out.missing = [...missing];
  return out;
}
