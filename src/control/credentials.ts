import { createHash, timingSafeEqual } from 'node:crypto';
import { lenientDecode } from './lenient.js';
import type { ServiceConfig } from '../config/types.js';

/** The query name that carries `security.apiKey` or `security.adminKey`. */
export const KEY_PARAM = 'key';
const MASK = '***';

/**
 * A raw query string with the value of every credential replaced by `***`, for anything that
 * records a query (fault records, log lines). Names are decoded leniently first, so `%6Bey=`
 * and `k%65y=`, which authenticate like `key=`, are masked like it; the name stays as sent.
 * Masked whether or not keys are configured: a client may send one to a unit that needs none.
 */
export function maskQuery(raw: string, names: readonly string[] = [KEY_PARAM]): string {
  // Every request's log line passes here: one scan, and a new string only when something is masked.
  let out = '';
  let kept = 0;
  let eq = -2;
  for (let start = 0; ;) {
    const amp = raw.indexOf('&', start);
    const end = amp < 0 ? raw.length : amp;
    if (eq !== -1 && eq < start) eq = raw.indexOf('=', start);
    if (eq === -1) break;
    // A cron's data or a saved request may start with the `?`.
    const from = start === 0 && raw.startsWith('?') ? 1 : start;
    if (eq < end && isCredentialName(lenientDecode(raw.slice(from, eq)), names)) {
      out += `${raw.slice(kept, eq + 1)}${MASK}`;
      kept = end;
    }
    if (amp < 0) break;
    start = amp + 1;
  }
  return kept === 0 ? raw : out + raw.slice(kept);
}

/**
 * A name that is a credential's after case folding and removing control characters: `Key=`,
 * `KEY=` and `key%00=` open nothing, but a client that sent one meant a key, so it is masked
 * like one wherever a query is recorded.
 */
export function isCredentialName(name: string, names: readonly string[] = [KEY_PARAM]): boolean {
  if (names.includes(name)) return true;
  // Every request's names pass here (the log line's mask): no string is built unless needed.
  if (name.length < 3) return false;
  for (const n of names) if (foldsInto(name, n)) return true;
  return false;
}

/** `name` equals the lower-case `target` once control characters are removed and letters folded. */
function foldsInto(name: string, target: string): boolean {
  let j = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) continue;
    if (j >= target.length) return false;
    // Beyond ASCII, as toLowerCase() folds it (the Kelvin sign is a K).
    const lower = c >= 0x41 && c <= 0x5a ? c + 0x20 : c < 0x80 ? c : String.fromCharCode(c).toLowerCase().charCodeAt(0);
    if (lower !== target.charCodeAt(j++)) return false;
  }
  return j === target.length;
}

/** `key` carries credentials only when keys are configured (docs/decisions.md); else it may be an area. */
export function credentialNames(config: Pick<ServiceConfig, 'security'>): string[] {
  return config.security?.apiKey || config.security?.adminKey ? [KEY_PARAM] : [];
}

/** A request URL (path and query) with its credentials masked. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q + 1) + maskQuery(url.slice(q + 1));
}

/**
 * The key a raw query carries, decoded as the name is, or '' when there is none or more
 * than one (an ambiguous credential opens nothing).
 */
export function queryKey(raw: string): string {
  let found: string | undefined;
  let count = 0;
  for (const piece of raw.split('&')) {
    const eq = piece.indexOf('=');
    if (eq < 0 || lenientDecode(piece.slice(0, eq)) !== KEY_PARAM) continue;
    found = lenientDecode(piece.slice(eq + 1));
    count++;
  }
  return count === 1 ? found! : '';
}

/**
 * Compares a given key with a configured one in constant time: both are hashed first, so
 * neither the content nor the length of the configured key shows in the timing.
 */
export function sameKey(given: string, expected: string | undefined): boolean {
  if (!expected) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
