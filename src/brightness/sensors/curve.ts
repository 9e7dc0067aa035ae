// From lux to a panel brightness: the configured curve (interpolated between its points), a
// median over the last readings so a passing shadow or headlight does not move the panel, and
// hysteresis so a light level between two steps never makes it flicker between them.

/**
 * Night ~0-10 lx, overcast day ~1000-10000, direct sun 30000+; an LED panel wants 10 % at night and all of it in
 * sunshine.
 */
export const DEFAULT_CURVE: ReadonlyArray<readonly [number, number]> = [
  [0, 10],
  [10, 15],
  [100, 30],
  [1000, 60],
  [10000, 90],
  [30000, 100],
];
/** Readings the median is taken over. */
export const MEDIAN_OF = 5;
/** Percentage points the target must move before the panel follows. */
export const HYSTERESIS = 3;

export function percentFor(lux: number, curve: ReadonlyArray<readonly [number, number]> = DEFAULT_CURVE): number {
  if (lux <= curve[0][0]) return curve[0][1];
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i];
    if (lux <= x1) {
      const [x0, y0] = curve[i - 1];
      return y0 + ((y1 - y0) * (lux - x0)) / (x1 - x0);
    }
  }
  return curve[curve.length - 1][1];
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Readings in, a steady percent out. The first reading sets the level at once; later the level
 * moves only when the smoothed target is HYSTERESIS points away, or reaches an end of the curve
 * (so the panel does get to its darkest and brightest levels).
 */
export class LuxFilter {
  private readonly window: number[] = [];
  private level: number | undefined;
  constructor(private readonly curve: ReadonlyArray<readonly [number, number]> = DEFAULT_CURVE) {}

  /** The smoothed lux of the readings held. */
  get lux(): number | undefined {
    return this.window.length ? median(this.window) : undefined;
  }

  get percent(): number | undefined {
    return this.level;
  }

  /** Adds a reading; returns the percent to show (unchanged when within the hysteresis). */
  add(lux: number): number {
    this.window.push(lux);
    if (this.window.length > MEDIAN_OF) this.window.shift();
    const target = Math.round(percentFor(median(this.window), this.curve));
    const ends = [this.curve[0][1], this.curve[this.curve.length - 1][1]].map(Math.round);
    if (
      this.level === undefined ||
      Math.abs(target - this.level) >= HYSTERESIS ||
      (ends.includes(target) && target !== this.level)
    )
      this.level = target;
    return this.level;
  }
}
