// Quiet hours: a daily window of local time (the configuration's `timezone`, else the
// process's zone) in which only priority announcements are spoken.
import type { SpeechSettings } from '../config/alert-speech-types.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes after local midnight at `ms` in `zone` (undefined: the process's zone, through Date alone). */
export function minuteOfDay(ms: number, zone?: string): number {
  if (!zone) {
    const d = new Date(ms);
    return d.getHours() * 60 + d.getMinutes();
  }
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(zone, f);
  }
  const parts = f.formatToParts(new Date(ms));
  const num = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return num('hour') * 60 + num('minute');
}

/**
 * Whether `ms` falls in the quiet window: from its start (inclusive) to its end (exclusive), over midnight when the
 * start is later.
 */
export function isQuiet(ms: number, quiet: SpeechSettings['quietHours'], zone?: string): boolean {
  if (!quiet) return false;
  const m = minuteOfDay(ms, zone);
  return quiet.from < quiet.to ? m >= quiet.from && m < quiet.to : m >= quiet.from || m < quiet.to;
}
