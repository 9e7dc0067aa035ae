// What a board may show of a trip beside its times: trips.txt's direction_id (for `filters`)
// and wheelchair_accessible (for an `accessible` column). Each trip carries them only when the
// schedule gives them; between the schedule's reading thread and the service they travel as
// one byte a trip: bits 0-1 direction_id + 1 (0: none), bits 2-3 wheelchair_accessible (0: none
// or 0, 1: accessible, 2: not).
import type { TripInfo } from './schedule.js';

type Get = (column: string) => string;

/** Sets the trip's traits from its trips.txt row. */
export function readTraits(t: TripInfo, get: Get): void {
  const dir = get('direction_id');
  if (dir === '0' || dir === '1') t.direction = Number(dir);
  const wc = get('wheelchair_accessible');
  if (wc === '1' || wc === '2') t.wheelchair = Number(wc) as 1 | 2;
}

export function packTraits(t: TripInfo): number {
  return (t.direction === undefined ? 0 : t.direction + 1) | ((t.wheelchair ?? 0) << 2);
}

export function unpackTraits(bits: number, t: TripInfo): void {
  if (bits & 3) t.direction = (bits & 3) - 1;
  const wc = (bits >> 2) & 3;
  if (wc === 1 || wc === 2) t.wheelchair = wc;
}
