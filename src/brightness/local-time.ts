// Local calendar dates and clock minutes in the configured zone: schedules are written as
// "MM-DD" and "HH:MM" as people on site read their clock, daylight saving time included.
import { zoneOffsetAt } from '../time/date-format.js';

const MINUTE = 60_000;

export interface LocalDay {
  year: number;
  month: number;
  day: number;
  /** Minutes since local midnight (fractional). */
  minutes: number;
  /** The zone's offset from UTC at that instant, in minutes. */
  offset: number;
}

export function offsetMinutes(zone: string, t: number): number {
  return zoneOffsetAt(zone, t).totalSeconds() / 60;
}

export function localDay(zone: string, t: number): LocalDay {
  const offset = offsetMinutes(zone, t);
  const d = new Date(t + offset * MINUTE);
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    minutes: (t + offset * MINUTE - midnight) / MINUTE,
    offset,
  };
}

/**
 * The instant a local clock in `zone` shows `minutes` after midnight of y-m-d. On the day the
 * clocks go forward a time that does not exist is read with the offset before the change.
 */
export function instantOf(zone: string, year: number, month: number, day: number, minutes: number): number {
  const wall = Date.UTC(year, month - 1, day) + minutes * MINUTE;
  let t = wall - offsetMinutes(zone, wall) * MINUTE;
  t = wall - offsetMinutes(zone, t) * MINUTE;
  return t;
}

/** y-m-d plus `n` days, as a calendar date. */
export function addDays(
  year: number,
  month: number,
  day: number,
  n: number,
): { year: number; month: number; day: number } {
  const d = new Date(Date.UTC(year, month - 1, day + n));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export const hhmm = (minutes: number): string => {
  const m = ((Math.round(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

export const mmdd = (month: number, day: number): string =>
  `${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
