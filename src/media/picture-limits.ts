// How large a picture may be (`limits.maxPictureMegapixels`) and how much memory decoded
// pictures may take at once; both follow the memory the unit has.
import { totalmem } from 'node:os';

/** Pixels in a megapixel here: 4096x4096 is 16. */
export const MEGAPIXEL = 1024 * 1024;
/** Bytes a decoded pixel takes (cairo's 32-bit ARGB). */
export const BYTES_PER_PIXEL = 4;
/** The default never exceeds this, whatever the memory. */
export const DEFAULT_MAX_MEGAPIXELS = 16;
/** The most the configuration may allow: 256 MB decoded. */
export const MAX_PICTURE_MEGAPIXELS = 64;
/** The budget of a small limit: icons and logos are decoded once and stay. */
const MIN_BUDGET = 32 * 1024 * 1024;

/** The memory this process may use: the machine's, or its cgroup's limit (systemd's MemoryMax=) when lower. */
export function unitMemoryBytes(): number {
  const limit = process.constrainedMemory?.();
  return Math.min(totalmem(), limit !== undefined && limit > 0 ? limit : Infinity);
}

/**
 * The limit when the configuration sets none: two pictures at the limit (the one shown and the
 * next, being decoded) take at most a third of the unit's memory; the rest is the service's own
 * (some 50-90 MB), its decoders' and browser's, the kernel's and the panel driver's. 16 from
 * 384 MB up (a unit with MemoryMax=400M), 10 with 256 MB, 5 with 128 MB.
 */
export function defaultPictureMegapixels(memory = unitMemoryBytes()): number {
  return Math.max(1, Math.min(DEFAULT_MAX_MEGAPIXELS, Math.floor(memory / 3 / (2 * BYTES_PER_PIXEL * MEGAPIXEL))));
}

/** Bytes decoded pictures may take at once, shown, cached or being decoded: two at the limit. */
export function pictureBudgetBytes(megapixels: number): number {
  return Math.max(MIN_BUDGET, 2 * megapixels * MEGAPIXEL * BYTES_PER_PIXEL);
}
