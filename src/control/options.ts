// The control extensions' query values: `keep`, `priority` and `expires` (their names are
// reserved in the configuration: src/config/reserved-names.ts).
import { MldsError } from '../errors.js';

export interface ControlOptions {
  /** Areas the message does not name keep their content and remaining ttl (same layout only). */
  keep: boolean;
  /** 0..9; 0 is what every command was before levels. */
  priority: number;
  /** Seconds the message holds its level (priority above 0 only). */
  expires?: number;
}

export const MAX_PRIORITY = 9;
export const MAX_EXPIRES_S = 86_400;

/** One of the names above into `into`; throws naming the field when malformed or repeated. */
export function controlOption(into: ControlOptions, name: string, value: string, seen: Set<string>): void {
  if (seen.has(name)) throw new MldsError('MLDS_BAD_CONTROL_OPTION', `"${name}" must appear at most once`, name);
  seen.add(name);
  if (name === 'keep') {
    if (value !== '0' && value !== '1')
      throw new MldsError(
        'MLDS_BAD_CONTROL_OPTION',
        `"keep" must be 1 (areas not named keep their content) or 0, not "${value}"`,
        name,
      );
    into.keep = value === '1';
  } else if (name === 'priority') {
    if (!/^\d$/.test(value))
      throw new MldsError(
        'MLDS_BAD_CONTROL_OPTION',
        `"priority" must be a whole number from 0 to ${MAX_PRIORITY}, not "${value}"`,
        name,
      );
    into.priority = Number(value);
  } else {
    const s = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
    if (!(s >= 1 && s <= MAX_EXPIRES_S))
      throw new MldsError(
        'MLDS_BAD_CONTROL_OPTION',
        `"expires" must be a whole number of seconds from 1 to ${MAX_EXPIRES_S}, not "${value}"`,
        name,
      );
    into.expires = s;
  }
}

/** A message above priority 0 must end by itself; one at 0 is the content underneath and has no end. */
export function checkLevel(o: ControlOptions): void {
  if (o.priority > 0 && o.expires === undefined)
    throw new MldsError(
      'MLDS_BAD_CONTROL_OPTION',
      `"expires" is required with priority ${o.priority} (seconds, 1 to ${MAX_EXPIRES_S})`,
      'expires',
    );
  if (o.priority === 0 && o.expires !== undefined)
    throw new MldsError('MLDS_BAD_CONTROL_OPTION', '"expires" applies only to a priority above 0', 'expires');
}
