// Wall-clock arithmetic in a named zone with Intl alone: a GTFS time is measured from "noon
// minus 12 h" of its service day in the schedule's zone (GTFS reference, stop_times.txt), which
// is midnight except on the two days a year a DST change falls between midnight and noon.
import { wallClock, wallOffsetMs } from '../time/wall-clock.js';

/** The instant a wall-clock time of the zone names (the later one in a DST gap's shift). */
export function zonedInstant(zone: string, year: number, month: number, day: number, hour: number): number {
  const asUtc = Date.UTC(year, month - 1, day, hour);
  let t = asUtc - wallOffsetMs(zone, asUtc);
  t = asUtc - wallOffsetMs(zone, t);
  return t;
}

/** Where a service day's GTFS times count from: noon of that day in the zone, minus 12 hours. */
export function serviceDayBase(zone: string, serviceDate: string): number {
  const y = Number(serviceDate.slice(0, 4));
  const m = Number(serviceDate.slice(4, 6));
  const d = Number(serviceDate.slice(6, 8));
  return zonedInstant(zone, y, m, d, 12) - 12 * 3600_000;
}

/** The zone's calendar date at `ms` as YYYYMMDD, shifted by `days`. */
export function serviceDate(zone: string, ms: number, days = 0): string {
  const w = wallClock(zone, ms);
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return (
    `${d.getUTCFullYear()}` + String(d.getUTCMonth() + 1).padStart(2, '0') + String(d.getUTCDate()).padStart(2, '0')
  );
}

/** Day of the week of a YYYYMMDD date, 0 = Monday (calendar.txt's column order). */
export function weekdayOf(date: string): number {
  const d = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(4, 6)) - 1, Number(date.slice(6, 8))));
  return (d.getUTCDay() + 6) % 7;
}
