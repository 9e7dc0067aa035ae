// A brightness schedule by half-months: each period from its first
// day on has a sunrise, a sunset, a day and a night level; brightness ramps between them over
// `rampMinutes`, centred on sunrise and sunset. The custom schedule file and the daylight
// schedule computed from the configured location are both this shape.
import { addDays, hhmm, instantOf, localDay, mmdd, offsetMinutes } from './local-time.js';

export interface Period {
  month: number;
  day: number;
  /**
   * `local`: minutes after local midnight, as a schedule file writes them. `utc`: minutes after
   * UTC midnight of the local date (may be negative), as computed from the sun: the clock time
   * then follows daylight saving time on the day itself, not on the day it was computed for.
   */
  clock: 'local' | 'utc';
  sunrise: number;
  sunset: number;
  /** The sun does not rise or does not set on this period's days (polar night, midnight sun). */
  polar?: 'day' | 'night';
  dayLevel: number;
  nightLevel: number;
}

export interface Schedule {
  kind: 'file' | 'daylight';
  rampMinutes: number;
  /** The period in force on a local date. */
  periodOn(year: number, month: number, day: number): Period;
}

/**
 * The period of `list` (a year's periods in date order, the same every year, at least one) in
 * force on a date: before the first, the last one of the year before.
 */
export function periodIn(list: Period[], month: number, day: number): Period {
  let found: Period | undefined;
  for (const p of list) if (p.month < month || (p.month === month && p.day <= day)) found = p;
  return found ?? list.at(-1)!;
}

export type Phase = 'day' | 'night' | 'sunrise ramp' | 'sunset ramp';

export interface ScheduleState {
  percent: number;
  phase: Phase;
  /** The period in force, as `MM-DD` of its first day. */
  from: string;
  /** Today's sunrise and sunset on the local clock (`HH:MM`); absent on a polar day or night. */
  sunrise?: string;
  sunset?: string;
  /** When the percent may change next (a ramp step, a ramp start, or midnight). */
  nextCheckAt: number;
}

const MINUTE = 60_000;
const MIN_STEP_MS = 1000;

interface DayPlan {
  rise0: number;
  rise1: number;
  set0: number;
  set1: number;
  period: Period;
  sunrise: number;
  sunset: number;
}

function planOf(s: Schedule, zone: string, year: number, month: number, day: number): DayPlan {
  const period = s.periodOn(year, month, day);
  const shift = period.clock === 'utc' ? offsetMinutes(zone, instantOf(zone, year, month, day, 720)) : 0;
  const sunrise = period.sunrise + shift,
    sunset = period.sunset + shift;
  // Ramps never overlap: on a very short day they meet in the middle.
  const half = Math.max(0, Math.min(s.rampMinutes / 2, (sunset - sunrise) / 2));
  return {
    rise0: sunrise - half,
    rise1: sunrise + half,
    set0: sunset - half,
    set1: sunset + half,
    period,
    sunrise,
    sunset,
  };
}

function levelAt(plan: DayPlan, m: number): { value: number; phase: Phase; slope: number } {
  const { period: p } = plan;
  if (p.polar) return { value: p.polar === 'day' ? p.dayLevel : p.nightLevel, phase: p.polar, slope: 0 };
  const ramp = (from: number, to: number, a: number, b: number, phase: Phase) => {
    const slope = (to - from) / (b - a);
    return { value: from + slope * (m - a), phase, slope };
  };
  if (m < plan.rise0 || m >= plan.set1) return { value: p.nightLevel, phase: 'night', slope: 0 };
  if (m < plan.rise1) return ramp(p.nightLevel, p.dayLevel, plan.rise0, plan.rise1, 'sunrise ramp');
  if (m < plan.set0) return { value: p.dayLevel, phase: 'day', slope: 0 };
  return ramp(p.dayLevel, p.nightLevel, plan.set0, plan.set1, 'sunset ramp');
}

/** The schedule's brightness at `t`, and when to look again. */
export function evaluate(s: Schedule, zone: string, t: number): ScheduleState {
  const now = localDay(zone, t);
  const plan = planOf(s, zone, now.year, now.month, now.day);
  const m = now.minutes;
  const { value, phase, slope } = levelAt(plan, m);
  const percent = Math.round(value);
  let next: number;
  if (slope !== 0) {
    // The moment the rounded value steps (Math.round turns at .5 upwards, so a falling ramp steps just past it).
    const boundary = slope > 0 ? percent + 0.5 : percent - 0.5;
    const end = phase === 'sunrise ramp' ? plan.rise1 : plan.set1;
    const at = Math.min(end, m + (boundary - value) / slope);
    next = t + Math.max(MIN_STEP_MS, (at - m) * MINUTE + (slope < 0 ? 60 : 0));
  } else {
    const later = [plan.rise0, plan.set0, plan.set1].filter((x) => x > m && !plan.period.polar);
    const tomorrow = addDays(now.year, now.month, now.day, 1);
    next = later.length
      ? instantOf(zone, now.year, now.month, now.day, Math.min(...later))
      : instantOf(zone, tomorrow.year, tomorrow.month, tomorrow.day, 0);
    if (next <= t) next = t + MIN_STEP_MS;
  }
  return {
    percent,
    phase,
    from: mmdd(plan.period.month, plan.period.day),
    ...(plan.period.polar ? {} : { sunrise: hhmm(plan.sunrise), sunset: hhmm(plan.sunset) }),
    nextCheckAt: next,
  };
}
