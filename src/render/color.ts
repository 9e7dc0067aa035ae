import type { Rgb, Rgba } from '../config/types.js';

export function cssRgb(c: Rgb): string {
  return `rgb(${c.r},${c.g},${c.b})`;
}

export function cssRgba(c: Rgba): string {
  return `rgba(${c.r},${c.g},${c.b},${c.a})`;
}
