// brightness-schedule.json (docs/configuration.md):
//   { "periods": [ { "from": "MM-DD", "sunrise": "HH:MM", "sunset": "HH:MM", "day": 0..100,
//     "night": 0..100 }, ... ], "rampMinutes": 30 }
// Checked like config.json: every fault at once, each at its JSON pointer, unknown fields are
// faults; a file with faults is never used.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ConfigFault } from '../config/faults.js';
import { daysInMonth } from './local-time.js';
import { periodIn, type Period, type Schedule } from './schedule.js';

export const SCHEDULE_FILE = 'brightness-schedule.json';
export const DEFAULT_RAMP_MINUTES = 30;
const MAX_RAMP_MINUTES = 240;
const MAX_BYTES = 256 * 1024;
const PERIOD_FIELDS = new Set(['from', 'sunrise', 'sunset', 'day', 'night']);

export type ScheduleRead =
  | { state: 'absent' }
  | { state: 'ok'; schedule: Schedule; periods: number }
  | { state: 'faulty'; faults: ConfigFault[] };

function clock(v: unknown): number | undefined {
  const m = typeof v === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(v) : null;
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

const level = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100;

/** Parses the file's text; `periods` sorted by date. */
export function parseSchedule(text: string): ScheduleRead {
  const faults: ConfigFault[] = [];
  const fault = (p: string, message: string) => faults.push({ path: p, message });
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { state: 'faulty', faults: [{ path: '', message: `is not valid JSON: ${(err as Error).message}` }] };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { state: 'faulty', faults: [{ path: '', message: 'must be an object with "periods" and "rampMinutes"' }] };
  const obj = raw as Record<string, unknown>;
  for (const k of Object.keys(obj)) if (k !== 'periods' && k !== 'rampMinutes') fault(`/${k}`, 'is not a known field');
  let rampMinutes = DEFAULT_RAMP_MINUTES;
  if (obj.rampMinutes !== undefined) {
    if (
      Number.isInteger(obj.rampMinutes) &&
      (obj.rampMinutes as number) >= 0 &&
      (obj.rampMinutes as number) <= MAX_RAMP_MINUTES
    )
      rampMinutes = obj.rampMinutes as number;
    else fault('/rampMinutes', `must be an integer number of minutes 0..${MAX_RAMP_MINUTES}`);
  }
  const periods: Period[] = [];
  if (!Array.isArray(obj.periods) || obj.periods.length === 0)
    fault('/periods', 'is required: a list of periods, usually 24 (the 1st and 16th of each month)');
  const seen = new Map<string, number>();
  (Array.isArray(obj.periods) ? obj.periods : []).forEach((p: unknown, i) => {
    const at = `/periods/${i}`;
    if (p === null || typeof p !== 'object' || Array.isArray(p))
      return fault(at, 'must be an object {from, sunrise, sunset, day, night}');
    const e = p as Record<string, unknown>;
    for (const k of Object.keys(e)) if (!PERIOD_FIELDS.has(k)) fault(`${at}/${k}`, 'is not a known field');
    const d = typeof e.from === 'string' ? /^(\d\d)-(\d\d)$/.exec(e.from) : null;
    const month = d ? Number(d[1]) : 0,
      day = d ? Number(d[2]) : 0;
    // 2024 is a leap year: 02-29 is a date a period may start on.
    if (!d || month < 1 || month > 12 || day < 1 || day > daysInMonth(2024, month))
      fault(`${at}/from`, 'must be a date "MM-DD" (the first day of the period)');
    else if (seen.has(e.from as string))
      fault(`${at}/from`, `"${e.from as string}" is also the start of period ${seen.get(e.from as string)}`);
    else seen.set(e.from as string, i);
    const sunrise = clock(e.sunrise),
      sunset = clock(e.sunset);
    if (sunrise === undefined) fault(`${at}/sunrise`, 'must be a local time "HH:MM"');
    if (sunset === undefined) fault(`${at}/sunset`, 'must be a local time "HH:MM"');
    else if (sunrise !== undefined && sunset <= sunrise)
      fault(`${at}/sunset`, `must be later than sunrise ${e.sunrise as string}`);
    if (!level(e.day)) fault(`${at}/day`, 'must be an integer percent 0..100');
    if (!level(e.night)) fault(`${at}/night`, 'must be an integer percent 0..100');
    if (faults.length === 0)
      periods.push({
        month,
        day,
        clock: 'local',
        sunrise: sunrise!,
        sunset: sunset!,
        dayLevel: e.day as number,
        nightLevel: e.night as number,
      });
  });
  if (faults.length) return { state: 'faulty', faults };
  periods.sort((a, b) => a.month - b.month || a.day - b.day);
  return {
    state: 'ok',
    periods: periods.length,
    schedule: { kind: 'file', rampMinutes, periodOn: (_y, month, day) => periodIn(periods, month, day) },
  };
}

/**
 * Reads the service directory's schedule file. Only a regular file is read (a FIFO would block
 * the service), through one descriptor, at most MAX_BYTES.
 */
export function readScheduleFile(dir: string): ScheduleRead {
  const file = path.join(dir, SCHEDULE_FILE);
  let fd: number;
  try {
    // Checked before opening too: opening a FIFO for reading would wait for a writer.
    if (!statSync(file).isFile()) return { state: 'faulty', faults: [{ path: '', message: 'is not a regular file' }] };
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'absent' };
    return { state: 'faulty', faults: [{ path: '', message: `cannot be read: ${code ?? (err as Error).message}` }] };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { state: 'faulty', faults: [{ path: '', message: 'is not a regular file' }] };
    if (st.size > MAX_BYTES)
      return { state: 'faulty', faults: [{ path: '', message: `is ${st.size} bytes; at most ${MAX_BYTES} are read` }] };
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return parseSchedule(buf.subarray(0, n).toString('utf8'));
  } catch (err) {
    return {
      state: 'faulty',
      faults: [
        { path: '', message: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` },
      ],
    };
  } finally {
    closeSync(fd);
  }
}
