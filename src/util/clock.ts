/** Time as the service sees it: injected so tests can move it (ttl expiry, schedules) without waiting. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A time for /status: ISO 8601 in UTC, undefined stays undefined. */
export function isoTime(ms: number): string;
export function isoTime(ms: number | undefined): string | undefined;
export function isoTime(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : new Date(ms).toISOString();
}
