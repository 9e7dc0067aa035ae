import type { UnitConfig } from '../config/types.js';
import { clipRect, contains, intersects, type Rect } from '../frame.js';
import type { AreaRenderer } from './area.js';

/**
 * Bytes of kept pictures (pages) a unit holds at most: 32 MB keeps four 1080p pages, or
 * every page of six 960x360 paged areas with two or three pages each.
 */
export const PICTURE_CAP = 32 * 1024 * 1024;

type Unit = Pick<UnitConfig, 'width' | 'height'>;

/** The area's rectangle on the unit, when no other area of the unit touches it: its pixels are its own alone. */
function ownRect(unit: Unit, ar: AreaRenderer, all: AreaRenderer[]): Rect | undefined {
  const r = clipRect(ar.rect, { x: 0, y: 0, w: unit.width, h: unit.height });
  if (r.w <= 0 || r.h <= 0) return undefined;
  for (const o of all) if (o !== ar && intersects(r, o.rect)) return undefined;
  return r;
}

/**
 * A page turn draws nothing: the page's picture, kept the first time it was shown, is copied
 * into the unit's picture buffer (a memcpy of its rows instead of cairo's fill, blits and
 * read-back: the paged 1080p board of bench/render.ts, 1.36 -> 0.07 of a fill and read-back). False when
 * no area with a kept picture for `now` owns all of `r`.
 */
export function copyKept(buffer: Uint8Array, unit: Unit, r: Rect, all: AreaRenderer[], now: number): boolean {
  for (let i = 0; i < all.length; i++) {
    const ar = all[i];
    const pic = ar.picture(now);
    if (!pic) continue;
    const own = ownRect(unit, ar, all);
    if (!own || !contains(own, r)) continue;
    const W = unit.width;
    if (r.x === 0 && r.w === W && own.w === W) {
      buffer.set(pic.subarray((r.y - own.y) * W * 4, (r.y - own.y + r.h) * W * 4), r.y * W * 4);
    } else {
      for (let k = 0; k < r.h; k++) {
        const from = ((r.y - own.y + k) * own.w + (r.x - own.x)) * 4;
        buffer.set(pic.subarray(from, from + r.w * 4), ((r.y + k) * W + r.x) * 4);
      }
    }
    return true;
  }
  return false;
}

/** Bytes of kept pictures the areas hold. */
export function keptBytes(all: AreaRenderer[]): number {
  return all.reduce((n, ar) => n + ar.keptBytes, 0);
}

/**
 * After a frame: keeps the picture on show of each steady repeating area (pages) that has its
 * pixels to itself, while the unit holds less than PICTURE_CAP of them. The buffer holds
 * exactly that picture: a changed area is repainted whole, over black, by itself.
 */
export function keepPictures(buffer: Uint8Array, unit: Unit, all: AreaRenderer[], now: number): void {
  let held = -1;
  for (let i = 0; i < all.length; i++) {
    const ar = all[i];
    if (!ar.repeatsAt(now) || ar.picture(now)) continue;
    const own = ownRect(unit, ar, all);
    if (!own) continue;
    if (held < 0) held = keptBytes(all);
    const bytes = own.w * own.h * 4;
    if (held + bytes > PICTURE_CAP) continue;
    const W = unit.width;
    const pic = new Uint8Array(bytes);
    for (let k = 0; k < own.h; k++)
      pic.set(buffer.subarray(((own.y + k) * W + own.x) * 4, ((own.y + k) * W + own.x + own.w) * 4), k * own.w * 4);
    ar.keepPicture(now, pic);
    held += bytes;
  }
}
