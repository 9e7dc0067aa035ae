// Times of stops left blank in stop_times.txt (allowed where a stop is not a timepoint), filled
// in between the timed stops around them as the GTFS reference lets a consumer do: in
// proportion to shape_dist_traveled when the stops give it, else evenly by their order.
import type { StopTime } from './schedule.js';

/**
 * Fills the NaN `sec` of `stops` (in stop_sequence order) that lie between two timed stops;
 * `dist` gives shape_dist_traveled by stop_sequence where known. Blanks before the first or
 * after the last timed stop stay blank (the reference requires those two to be timed).
 */
export function fillBlankTimes(stops: StopTime[], dist?: ReadonlyMap<number, number>): void {
  let from = -1;
  for (let i = 0; i < stops.length; i++) {
    if (!Number.isFinite(stops[i].sec)) continue;
    if (from >= 0 && i > from + 1) fillBetween(stops, from, i, dist);
    from = i;
  }
}

function fillBetween(stops: StopTime[], a: number, b: number, dist?: ReadonlyMap<number, number>): void {
  const ta = stops[a].sec;
  const span = stops[b].sec - ta;
  const da = dist?.get(stops[a].seq);
  const db = dist?.get(stops[b].seq);
  for (let k = a + 1; k < b; k++) {
    const dk = dist?.get(stops[k].seq);
    const byDistance = da !== undefined && db !== undefined && dk !== undefined && db > da && dk >= da && dk <= db;
    const share = byDistance ? (dk - da) / (db - da) : (k - a) / (b - a);
    stops[k].sec = Math.round(ta + span * share);
  }
}
