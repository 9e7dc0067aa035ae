// Why a command with `ts` was not acted on. The age is measured by the unit's own clock: a clock
// that is not synchronized, or far off its source, makes every command look stale (a unit 90 s
// fast refused them all while its status said "ok"), so the refusal says so.
import { clockOffsetMs, clockSynchronized } from '../time/clock-guard.js';
import { MAX_AGE_MS } from './payload.js';

export function staleMessage(ageMs: number): string {
  const base =
    `sent ${Math.round(ageMs / 1000)} s ago by this unit's clock; commands older than ` +
    `${MAX_AGE_MS / 1000} s are not acted on`;
  const offset = clockOffsetMs();
  const off =
    offset === undefined
      ? ''
      : ` (${Math.round(Math.abs(offset) / 100) / 10} s ${offset > 0 ? 'ahead of' : 'behind'} its time source)`;
  if (clockSynchronized() === false)
    return `${base}; this unit's clock is not synchronized${off}, so the age may be wrong`;
  if (offset !== undefined && Math.abs(offset) > MAX_AGE_MS / 2) return `${base}; this unit's clock is${off}`;
  return base;
}
