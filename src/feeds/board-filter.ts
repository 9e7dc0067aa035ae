// Which departures a board's query keeps beyond its routes: its trips' GTFS direction_ids, their
// headsigns (the destination the board shows, as written), and none a passenger walking
// `walkMinutes` from the sign could reach (earlier than `notBefore`).
import type { BoardQuery, Departure } from '../config/board-source.js';

export function wantedBy(q: BoardQuery): (d: Departure) => boolean {
  const directions = q.directions?.length ? new Set(q.directions) : undefined;
  const headsigns = q.headsigns?.length ? new Set(q.headsigns) : undefined;
  const from = q.notBefore ?? q.now;
  return (d) =>
    d.time >= from &&
    (!directions || (d.direction !== undefined && directions.has(d.direction))) &&
    (!headsigns || headsigns.has(d.destination));
}
