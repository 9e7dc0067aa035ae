// What a schedule says of the boards that draw from it: a stop id it does not have, or a
// `routes` entry that none of a board's trips runs, leaves the board blank for ever. Faults of
// `mlds test` when the schedule is at hand (preview/feeds-check.ts), problems on /status when
// it arrives later (feed.ts).
import type { BoardArea } from '../config/feed-types.js';
import { pointer } from '../config/faults.js';
import type { Schedule } from './schedule.js';

export interface BoardFault {
  path: string;
  message: string;
}

export function boardFaults(feed: string, boards: readonly BoardArea[], schedule: Schedule): BoardFault[] {
  const out: BoardFault[] = [];
  for (const b of boards) {
    const at = (field: string, i: number) => pointer('displays', b.display, 'layout', b.layout, b.area, field, i);
    b.stops.forEach((s, i) => {
      if (!schedule.knows(s))
        out.push({ path: at('stops', i), message: `feed ${feed}'s schedule has no stop "${s}" (stops.txt)` });
    });
    const served = new Set(schedule.routesAt(b.stops));
    (b.routes ?? []).forEach((r, i) => {
      if (!served.has(r))
        out.push({
          path: at('routes', i),
          message: `no trip of route "${r}" in feed ${feed}'s schedule departs from the board's stops`,
        });
    });
  }
  return out;
}
