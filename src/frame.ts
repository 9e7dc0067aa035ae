/** A colour as areas and outputs use it, each channel 0..255. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}
/** `a` is opacity 0..1 (the file's GD alpha 0 = opaque .. 127 = transparent, converted). */
export interface Rgba extends Rgb {
  a: number;
}

/**
 * What became of the frame that carried a change: whether it reached the output, and its
 * number (a unit's frames are numbered from 1 as they are rendered). A newer frame may have
 * replaced the one first drawn with the change before the output took it: the number says
 * which state went out.
 */
export interface FrameFate {
  ok: boolean;
  frame: number;
}

/** A rectangle of a frame, in pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Where a frame differs from an earlier one: an output that last showed frame `since` needs
 * only these rectangles to show this one; any other output takes the whole frame.
 */
export interface Damage {
  since: number;
  rects: Rect[];
}

/**
 * One finished picture: tightly packed RGBA, width*height*4 bytes. Made by render/, taken by
 * output/ and http/: it belongs to none of them.
 *
 * `data` of a compositor's frame is the unit's picture buffer, updated in place by the next
 * render (copying 8 MB per 1080p frame cost more than drawing it): it holds this frame until
 * the compositor renders again, and a newer complete picture after that, never a torn one.
 * Whoever keeps a picture longer (the virtual output, the live view) keeps a copy, patched
 * with `damage`.
 */
export interface Frame {
  width: number;
  height: number;
  data: Uint8Array;
  /** Monotonic frame counter of the unit that made it. */
  seq: number;
  /** Absent: treat the whole frame as changed. */
  damage?: Damage;
}

/** The part of `r` inside `to` (zero or negative width or height when none). */
export function clipRect(r: Rect, to: Rect): Rect {
  const x = Math.max(r.x, to.x);
  const y = Math.max(r.y, to.y);
  return { x, y, w: Math.min(r.x + r.w, to.x + to.w) - x, h: Math.min(r.y + r.h, to.y + to.h) - y };
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Whether `b` lies wholly inside `a`. */
export function contains(a: Rect, b: Rect): boolean {
  return b.x >= a.x && b.y >= a.y && b.x + b.w <= a.x + a.w && b.y + b.h <= a.y + a.h;
}

/** A frame's place in its sequence: what the damage bookkeeping needs of it. */
export type FrameMark = Pick<Frame, 'seq' | 'damage'>;

/** The rectangles an output must write to go from showing frame `shown` to `frame`; undefined means all of it. */
export function damageSince(frame: FrameMark, shown: number | undefined): Rect[] | undefined {
  if (shown === undefined) return undefined;
  if (shown === frame.seq) return [];
  return frame.damage && frame.damage.since === shown ? frame.damage.rects : undefined;
}

/**
 * A frame that replaces `older` before anyone took `older`: its damage grows to cover both,
 * so an output that showed what `older` was drawn over can still patch.
 */
export function mergeDamage<F extends FrameMark>(older: FrameMark, newer: F): F {
  if (newer.seq === older.seq) return { ...newer, damage: older.damage };
  if (!older.damage || !newer.damage || newer.damage.since !== older.seq) return { ...newer, damage: undefined };
  return { ...newer, damage: { since: older.damage.since, rects: [...older.damage.rects, ...newer.damage.rects] } };
}

/** Copies the rectangles (or everything, when `rects` is undefined) of `from` into `to`; both width x height RGBA. */
export function patch(to: Uint8Array, from: Uint8Array, width: number, rects: Rect[] | undefined): void {
  if (!rects) {
    to.set(from.subarray(0, to.length));
    return;
  }
  for (const r of rects) {
    const row = r.w * 4;
    for (let y = r.y; y < r.y + r.h; y++) {
      const o = (y * width + r.x) * 4;
      to.set(from.subarray(o, o + row), o);
    }
  }
}

/**
 * The rows `rects` touch, as sorted disjoint runs [y0, y1); more than `max` runs become one
 * from the first row to the last (a packet per run is the cost of a gap).
 */
export function rowRuns(rects: Rect[], max = 8): Array<{ y0: number; y1: number }> {
  const sorted = rects
    .filter((r) => r.w > 0 && r.h > 0)
    .map((r) => ({ y0: r.y, y1: r.y + r.h }))
    .sort((a, b) => a.y0 - b.y0);
  const runs: Array<{ y0: number; y1: number }> = [];
  for (const r of sorted) {
    const last = runs.at(-1);
    if (last && r.y0 <= last.y1) last.y1 = Math.max(last.y1, r.y1);
    else runs.push({ ...r });
  }
  return runs.length > max ? [{ y0: runs[0].y0, y1: runs.at(-1)!.y1 }] : runs;
}

/**
 * `rects` (a fresh array, changed in place) clipped to `full`, without empty ones and without
 * those another one contains (the first of equal ones stays).
 */
export function visibleOnly(rects: Rect[], full: Rect): Rect[] {
  let n = 0;
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i];
    const c = contains(full, r) ? r : clipRect(r, full);
    if (c.w > 0 && c.h > 0) rects[n++] = c;
  }
  rects.length = n;
  if (n < 2) return rects;
  // The dropped ones as bits (a few rectangles, every frame), as flags past 31; then compacted in place.
  const many: boolean[] | undefined = n > 31 ? [] : undefined;
  let bits = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (j !== i && contains(rects[j], rects[i]) && (!contains(rects[i], rects[j]) || j < i)) {
        if (many) many[i] = true;
        else bits |= 1 << i;
        break;
      }
    }
  }
  let k = 0;
  for (let i = 0; i < n; i++) if (!(many ? many[i] : bits & (1 << i))) rects[k++] = rects[i];
  rects.length = k;
  return rects;
}
