// `mlds test` on the feeds, offline: a GTFS schedule in the service folder is read as the
// service reads it (in a thread of its own, within the same bounds, fetching nothing), and each
// stop a departures area names is looked for in it, so a wrong stop_id (or a `routes` entry
// that none of its trips runs) is a fault before the board is mounted on the street. The schedules read
// are the sample the previews draw the boards from: their scheduled departures at the moment
// of the test, marked as not live.
import type { ServiceConfig } from '../config/types.js';
import type { BoardSource } from '../config/board-source.js';
import { gtfsBoard, NO_DATA } from '../feeds/board.js';
import type { Schedule } from '../feeds/schedule.js';
import { pointer, type ConfigFault } from '../config/faults.js';
import { ScheduleReader } from '../feeds/schedule-reader.js';
import { boardFaults } from '../feeds/board-check.js';

export async function checkSchedules(
  config: ServiceConfig,
): Promise<{ faults: ConfigFault[]; warnings: string[]; notes: string[]; boards: BoardSource }> {
  const read = new Map<string, { schedule: Schedule; zone: string }>();
  const faults: ConfigFault[] = [];
  const warnings: string[] = [];
  const notes: string[] = [];
  const reader = new ScheduleReader();
  for (const feed of config.feeds) {
    if (!feed.static) continue;
    if (!('file' in feed.static)) {
      notes.push(`feed ${feed.id}: the schedule is fetched at start (not checked offline)`);
      continue;
    }
    const stops = new Set(feed.boards.flatMap((b) => b.stops));
    try {
      const schedule = await reader.read(feed.static.file, stops, config.staticMaxMB * 2 ** 20);
      const zone = feed.timezone ?? schedule.agencyZone;
      notes.push(
        `feed ${feed.id}: schedule read: ${schedule.trips.size} trips and ${schedule.size} stop times for the ` +
          `boards' ${stops.size} stop(s), zone ${zone ?? 'none (agency.txt has none)'}`,
      );
      if (!zone)
        faults.push({
          path: pointer('feeds', feed.id, 'timezone'),
          message: "the schedule's agency.txt names no agency_timezone: give the feed a timezone",
        });
      else read.set(feed.id, { schedule, zone });
      faults.push(...boardFaults(feed.id, feed.boards, schedule));
      for (const b of feed.boards) {
        for (const s of b.stops) {
          if (schedule.knows(s) && !schedule.hasStop(s))
            warnings.push(
              `${pointer('displays', b.display, 'layout', b.layout, b.area, 'stops')}: no trip of feed ` +
                `${feed.id}'s schedule departs from stop "${s}"`,
            );
        }
      }
    } catch (err) {
      faults.push({ path: pointer('feeds', feed.id, 'static'), message: (err as Error).message });
    }
  }
  await reader.close();
  const boards: BoardSource = {
    board: (q) => {
      const r = read.get(q.feed);
      return r ? gtfsBoard(q, { ...r, fresh: false }) : NO_DATA;
    },
    onChange: () => () => {},
  };
  return { faults, warnings, notes, boards };
}
