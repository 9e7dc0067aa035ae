// The default schedule (specification: "moves between 50% and 100% by local sunrise/sunset,
// accurate to two weeks"): sunrise and sunset computed with suncalc at the middle day of each
// half month (the 8th, and the middle of the 16th..end) and used for the whole half month.
import { getPosition, getTimes } from 'suncalc';
import { daysInMonth, instantOf } from './local-time.js';
import type { Period, Schedule } from './schedule.js';
import { DEFAULT_RAMP_MINUTES } from './schedule-file.js';

export const DAY_LEVEL = 100;
export const NIGHT_LEVEL = 50;
/** The sun's upper edge on the horizon with standard refraction, as almanacs count sunrise. */
const HORIZON_DEG = -0.833;

/** The day whose sun times stand for the half month starting on `day` (1 or 16). */
export function middleDay(year: number, month: number, day: 1 | 16): number {
  return day === 1 ? 8 : 16 + Math.floor((daysInMonth(year, month) - 16) / 2);
}

/**
 * Sunrise and sunset of one local date, in minutes after UTC midnight of that date; polar when the sun stays up or
 * down.
 */
export function sunTimes(
  zone: string,
  latitude: number,
  longitude: number,
  year: number,
  month: number,
  day: number,
): Pick<Period, 'sunrise' | 'sunset' | 'polar'> {
  const noon = new Date(instantOf(zone, year, month, day, 720));
  const t = getTimes(noon, latitude, longitude);
  const base = Date.UTC(year, month - 1, day);
  if (!t.sunrise || !t.sunset) {
    const up = t.alwaysUp ?? getPosition(t.solarNoon, latitude, longitude).altitude > HORIZON_DEG;
    return { sunrise: 0, sunset: 0, polar: up ? 'day' : 'night' };
  }
  return { sunrise: (t.sunrise.getTime() - base) / 60_000, sunset: (t.sunset.getTime() - base) / 60_000 };
}

/**
 * The half month in force is computed when first asked for and kept: a start needs one or two
 * of a year's 24, and suncalc takes some 0.2 ms a date here, uncompiled as a start runs it.
 * `sun` is sunTimes (tests count its calls).
 */
export function daylightSchedule(zone: string, latitude: number, longitude: number, sun = sunTimes): Schedule {
  const halves = new Map<number, Period>();
  return {
    kind: 'daylight',
    rampMinutes: DEFAULT_RAMP_MINUTES,
    periodOn(year, month, day) {
      const first = day >= 16 ? 16 : 1;
      const key = (year * 12 + month) * 2 + (first === 16 ? 1 : 0);
      let period = halves.get(key);
      if (!period) {
        const times = sun(zone, latitude, longitude, year, month, middleDay(year, month, first));
        period = { month, day: first, clock: 'utc', ...times, dayLevel: DAY_LEVEL, nightLevel: NIGHT_LEVEL };
        if (halves.size >= 48) halves.clear();
        halves.set(key, period);
      }
      return period;
    },
  };
}
