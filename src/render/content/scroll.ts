// Geometry of right-to-left scrolling, kept pure so tests can check it without pixels.

/** scrollSpeed 0..8 -> pixels per second (0 fastest). */
export const SCROLL_SPEED_PX_PER_S = [480, 360, 240, 180, 120, 90, 60, 45, 30] as const;

export function scrollPxPerSecond(scrollSpeed: number): number {
  const i = Math.min(8, Math.max(0, Math.round(scrollSpeed)));
  return SCROLL_SPEED_PX_PER_S[i];
}

/**
 * Pixels a scroll moves at a time at `fps` frames per second: the fewest that keep the moves
 * at most one per frame. Every move is then this same step, made at its exact instant
 * (step / speed apart, which is at least one frame period), so the speed is met exactly and
 * the motion is even: 120 px/s at 50 fps moves 3 px every 25 ms, not 2 or 3 px every 20 ms.
 */
export function scrollStep(pxPerSecond: number, fps: number): number {
  return fps > 0 ? Math.max(1, Math.ceil(pxPerSecond / fps - 1e-9)) : 1;
}

/**
 * Whole pixels travelled since the scroll origin, in whole steps (see scrollStep). Whole
 * pixels keep LED text crisp, and because the value comes from the clock a late frame
 * shows the right position, not a slower scroll.
 */
export function scrollDistance(pxPerSecond: number, origin: number, now: number, step = 1): number {
  return now <= origin ? 0 : step * Math.floor(((now - origin) * pxPerSecond) / (1000 * step));
}

/** ms epoch at which the distance first reaches `d` (the next frame worth drawing). */
export function timeOfDistance(pxPerSecond: number, origin: number, d: number): number {
  return origin + Math.ceil((d * 1000) / pxPerSecond);
}

/** Room fillCopyPositions needs: copies `period` apart that touch an open span of areaWidth + stripWidth px. */
export function maxCopies(areaWidth: number, stripWidth: number, period: number): number {
  return Math.ceil((areaWidth + stripWidth) / period) + 2;
}

/**
 * Left edges (relative to the area) of the copies of a strip `stripWidth` wide, repeating
 * every `period` px, after travelling `d` px, written into `out` (at least maxCopies long);
 * returns how many. Copy n's head entered at the right edge when the distance was n * period,
 * so no copy exists before its time (the first pass starts with an empty area). A frame
 * makes no array.
 */
export function fillCopyPositions(
  out: Float64Array,
  areaWidth: number,
  stripWidth: number,
  period: number,
  d: number,
): number {
  let count = 0;
  const last = Math.floor(d / period);
  // Copies whose right end is already past the left edge are skipped without iterating them.
  const first = Math.max(0, Math.ceil((d - areaWidth - stripWidth) / period));
  for (let n = first; n <= last && count < out.length; n++) {
    const x = areaWidth - d + n * period;
    if (x < areaWidth && x + stripWidth > 0) out[count++] = x;
  }
  return count;
}
