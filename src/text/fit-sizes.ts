// The sizes fitting (fit "shrink") may draw a value at, and the search for the largest one that
// fits: few layouts, since each candidate tried is a whole layout of the value.
import { isBitmapFontFile, loadBdf } from './bdf.js';

/** What decides the candidates: an area's font, its smaller bitmap fonts, and its size range. */
export interface SizeOptions {
  font?: string;
  fonts: readonly string[];
  fontSize: number;
  minFontSize?: number;
}

export type Candidate = { font?: string; size: number };

/**
 * Fonts and sizes to try, largest first: every size from fontSize down to minFontSize, or the smaller bitmap fonts of
 * `fonts`.
 */
export function candidates(o: SizeOptions): Candidate[] {
  const first = { font: o.font, size: o.fontSize };
  if (o.minFontSize === undefined) return [first];
  if (o.font && isBitmapFontFile(o.font)) {
    const px = loadBdf(o.font).pixelSize;
    const smaller = o.fonts
      .filter(isBitmapFontFile)
      .map((f) => ({ f, px: loadBdf(f).pixelSize }))
      .filter((b) => b.px < px)
      .sort((a, b) => b.px - a.px);
    const out = [first];
    for (const b of smaller) {
      // The largest whole multiple of its pixel size not above fontSize.
      const size = Math.floor(o.fontSize / b.px) * b.px;
      if (size >= Math.max(b.px, o.minFontSize) && size < out[out.length - 1].size) out.push({ font: b.f, size });
    }
    return out;
  }
  const min = Math.max(1, o.minFontSize);
  const out = [first];
  for (let s = o.fontSize - 1; s >= min; s--) out.push({ font: o.font, size: s });
  return out;
}

/**
 * The first (largest) candidate of 1..n-1 for which `ok` holds, candidate 0 having failed;
 * undefined when none does. A text that fits at one size fits at every smaller one (near
 * enough: wrapping may break differently), so the search starts at `guess` (a size estimated
 * from measured widths), steps away from it 1, 2, 4... candidates until the answer changes,
 * then bisects: two layouts when the guess is right, about 2 log2(miss) when it is not.
 */
export function largestFitting(n: number, ok: (i: number) => boolean, guess: number): number | undefined {
  if (n < 2) return undefined;
  // Candidate lo fails; candidate hi fits (-1: none known to).
  let lo = 0;
  let hi = -1;
  const g = Math.min(n - 1, Math.max(1, guess));
  if (ok(g)) {
    hi = g;
    for (let d = 1; hi - d > lo; d *= 2) {
      if (ok(hi - d)) hi -= d;
      else {
        lo = hi - d;
        break;
      }
    }
  } else {
    lo = g;
    for (let d = 1; hi < 0 && lo < n - 1; d *= 2) {
      const k = Math.min(n - 1, lo + d);
      if (ok(k)) hi = k;
      else lo = k;
    }
    if (hi < 0) return undefined;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Index of the largest candidate not above `size` (candidates run largest first). */
export function indexAtOrBelow(cands: Candidate[], size: number): number {
  const i = cands.findIndex((c) => c.size <= size);
  return i < 0 ? cands.length - 1 : i;
}
