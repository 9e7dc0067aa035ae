// Reconnect delays: exponential from 1 s to 60 s with jitter, after refused
// logins too, so a fleet that lost its broker does not come back in one stampede.

export const MIN_MS = 1000;
export const MAX_MS = 60_000;
/** A connection that held this long resets the backoff. */
export const STABLE_MS = 10_000;

/** The wait before attempt `n` (0 = the first retry): 2^n s capped at 60 s, scaled by 0.5..1. */
export function backoffMs(n: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_MS, MIN_MS * 2 ** Math.min(n, 16));
  return Math.max(MIN_MS, Math.round(ceiling * (0.5 + random() / 2)));
}
