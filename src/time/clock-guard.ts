// The clock guard: a controller without a battery-backed clock boots in 1970 and
// NTP steps it later (FPP #2420, WLED #1327). Until the clock is synchronized or plausible,
// date areas show their defaultValue (or nothing), time-of-day crons and the daylight
// schedule hold, and /info says why. Plausible: not before the year this version was built.

/**
 * The year this version was built, raised with each release. A constant, not a file's
 * modification time: an install or checkout stamps files with whatever its clock says, and
 * the tests' fixed dates must not turn implausible with the year CI runs in.
 */
export const BUILD_YEAR = 2026;
/** The first instant of BUILD_YEAR: comparing with it makes no Date (date areas ask on every frame). */
const PLAUSIBLE_FROM = Date.UTC(BUILD_YEAR, 0, 1);

/** Whether the system says the clock is synchronized (timedatectl / adjtimex); undefined = not known yet. */
let synchronized: boolean | undefined;

/** Set by the health monitor each time it asks the system. */
export function setClockSynchronized(value: boolean | undefined): void {
  synchronized = value;
}

export function clockSynchronized(): boolean | undefined {
  return synchronized;
}

/**
 * How far the clock is ahead of its time source in ms, as the time daemon last said (clock-sync.ts); undefined = not
 * known.
 */
let offset: number | undefined;

export function setClockOffset(ms: number | undefined): void {
  offset = ms;
}

export function clockOffsetMs(): number | undefined {
  return offset;
}

/** Why time-of-day content holds at `now`, or undefined when the clock can be trusted. */
export function clockHeld(now: number): string | undefined {
  if (synchronized === true) return undefined;
  if (now >= PLAUSIBLE_FROM) return undefined;
  const held = 'date areas show their defaultValue, time-of-day crons and the daylight schedule hold until it is set';
  return (
    `the clock shows ${new Date(now).toISOString()}, before ${BUILD_YEAR} (this version's year), ` +
    `and is not synchronized: ${held}`
  );
}
