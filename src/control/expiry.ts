// Time running out on a display's levels: a level's `expires` and an area's `ttl`.
import { defaultContent } from './content.js';
import { requested, shownLine } from './layers.js';
import type { HeldState, Layer } from './state.js';

/** When the next level or area of these levels runs out (Infinity: none does). */
export function nextExpiry(layers: readonly Layer[]): number {
  let next = Infinity;
  for (const l of layers) {
    if (l.expiresAt !== undefined) next = Math.min(next, l.expiresAt);
    for (const a of l.areas.values()) if (a.expiresAt !== undefined) next = Math.min(next, a.expiresAt);
  }
  return next;
}

/**
 * Each area whose ttl passed shows its defaultValue, or nothing, on every level that stays (a
 * level stored underneath whose requested contents all ran out before it was ever shown is
 * confirmed 0); each level whose `expires` passed leaves the display's levels. Returns the levels
 * that ended and whether an area of the level on show changed.
 */
export function expireLevels(
  id: string,
  st: HeldState,
  now: number,
  shown?: (line: string) => void,
): { ended: Layer[]; changed: boolean } {
  const top = st.layers[0];
  let changed = false;
  for (const l of st.layers) {
    if (l.expiresAt !== undefined && l.expiresAt <= now) continue;
    let here = false;
    for (const [areaId, a] of l.areas) {
      if (a.expiresAt === undefined || a.expiresAt > now) continue;
      const d = defaultContent(a.area, { fontColor: a.fontColor, fontSize: a.fontSize }, now);
      l.areas.set(areaId, d);
      here = true;
      if (l === top) {
        changed = true;
        shown?.(shownLine(id, l, d, now, true));
      }
    }
    if (here && l.reveal && ![...l.areas.values()].some(requested)) {
      l.reveal('not shown');
      l.reveal = undefined;
    }
  }
  const ended = st.layers.filter((l) => l.expiresAt !== undefined && l.expiresAt <= now);
  if (ended.length) {
    st.layers = st.layers.filter((l) => !ended.includes(l));
    for (const l of ended) l.reveal?.('not shown');
  }
  return { ended, changed };
}
