// Where a content's cycle (its pages, or its scroll loop) starts counting. An area whose `sync`
// is "clock" counts from the Unix epoch, so the page shown at an instant depends only on the
// content and the instant, never on when the command came: units with the same layout, the same
// content and a synchronized clock turn pages together, and a new command keeps the grid.
// "free" counts from the moment the content enters, as before `sync` existed.

/** The instant clock-synchronized cycles count from: 1970-01-01T00:00:00Z, every unit's. */
export const CLOCK_EPOCH = 0;

/** What a content does over time: `still` has no cycle. */
export type CycleMode = 'still' | 'pages' | 'scroll' | 'scroll-up';

/**
 * The origin of a content's cycle. Unset `sync` is "clock" for pages (the passenger's page
 * turns on a platform) and "free" for scrolls, whose head enters at the right edge on a command.
 */
export function cycleOrigin(sync: 'clock' | 'free' | undefined, mode: CycleMode, start: number): number {
  if (sync === 'free' || mode === 'still') return start;
  return sync === 'clock' || mode === 'pages' ? CLOCK_EPOCH : start;
}

/** A page's times (a MULTI [pt]'s, else the area's pageSeconds, no off time). */
export interface PageTime {
  onMs: number;
  offMs: number;
}

/**
 * The page shown at `now` of pages shown in turn from `origin`, and until when: index i for
 * page i, -(i + 2) for the blank off time after page i. The cycle is the sum of every page's
 * on and off times; the slot of page i starts at origin + k x cycle + the times of the pages
 * before it.
 */
export function pageAt(now: number, origin: number, pages: readonly PageTime[]): { index: number; until: number } {
  const cycle = pages.reduce((t, p) => t + p.onMs + p.offMs, 0);
  if (pages.length === 0 || cycle <= 0) return { index: 0, until: Infinity };
  const since = Math.max(0, now - origin);
  const start = now - (since % cycle);
  let t = start;
  for (const [i, p] of pages.entries()) {
    if (now < t + p.onMs) return { index: i, until: t + p.onMs };
    t += p.onMs;
    if (now < t + p.offMs) return { index: -(i + 2), until: t + p.offMs };
    t += p.offMs;
  }
  return { index: 0, until: start + cycle + pages[0].onMs };
}
