// Words for a confirmation about texts cut at their area's edge (fit "clipped": a line wider
// than its area under overflow "pages" without wrap): the sender learns what the panel cut.
import type { TextFit } from './content/content.js';

type DisplayFit = { display: string; area: string } & TextFit;

/** The message of a confirm=1: "shown", naming each area of `display` whose text is clipped and by how many pixels. */
export function shownMessage(fits: readonly DisplayFit[] | undefined, display: string): string {
  const cut = (fits ?? []).filter((f) => f.display === display && f.clippedPx);
  return cut.length ? `shown; ${cut.map((f) => `area "${f.area}" clipped by ${f.clippedPx} px`).join(', ')}` : 'shown';
}
