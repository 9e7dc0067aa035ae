import { createHash, timingSafeEqual } from 'node:crypto';
import { lenientDecode } from './lenient.js';
import type { ServiceConfig } from '../config/types.js';

/** The query name that carries `security.apiKey` or `security.adminKey`. */
export const KEY_PARAM = 'key';
const MASK = '***';

/**
 * Names masked wherever a request is recorded, in their folded form (letters and digits only,
 * lower case: see isCredentialName): `key`, the names a client may put a key under by mistake,
 * the header's (`x-api-key`) and the configuration's (`apiKey`, `adminKey`), and the names other
 * services give their credentials (`api_key`, `token`, `access_token`, `password`...). Only
 * `key` authenticates.
 */
const MASKED_NAMES: readonly string[] = [
  KEY_PARAM,
  'xapikey',
  'apikey',
  'adminkey',
  'apitoken',
  'token',
  'accesstoken',
  'authtoken',
  'authorization',
  'password',
  'passwd',
  'secret',
];
const MASKED = new Set(MASKED_NAMES);
const LONGEST_MASKED = Math.max(...MASKED_NAMES.map((n) => n.length));

// Where a name may start in a recorded request: after `&`, the `;` some clients separate with,
// the `#` of a fragment sent raw, and a `?` (a second one, or one inside a URL as a value).
const QUESTION = 0x3f,
  HASH = 0x23,
  SEMI = 0x3b;

/**
 * The next `=` (when `equals`) or separator at or after a position. Found with indexOf, a
 * native scan (a loop over characters, or a regular expression, cost 4-15 ns a character on
 * a 4 KB text), with each character's next position kept, so a text is scanned once per
 * character looked for. -2: not looked for yet; -1: none left.
 */
class Separators {
  private eq = -2;
  private amp = -2;
  private semi = -2;
  private hash = -2;
  private question = -2;
  constructor(private readonly raw: string) {}

  next(from: number, equals: boolean): number {
    const r = this.raw;
    if (this.amp !== -1 && this.amp < from) this.amp = r.indexOf('&', from);
    if (this.semi !== -1 && this.semi < from) this.semi = r.indexOf(';', from);
    if (this.hash !== -1 && this.hash < from) this.hash = r.indexOf('#', from);
    if (this.question !== -1 && this.question < from) this.question = r.indexOf('?', from);
    let best = earlier(earlier(this.amp, this.semi), earlier(this.hash, this.question));
    if (equals) {
      if (this.eq !== -1 && this.eq < from) this.eq = r.indexOf('=', from);
      best = earlier(best, this.eq);
    }
    return best;
  }
}

/** The earlier of two positions, -1 meaning none. */
function earlier(a: number, b: number): number {
  return a < 0 ? b : b < 0 || a < b ? a : b;
}

/**
 * A raw query string with the value of every credential replaced by `***`, for anything that
 * records a query (fault records, log lines). Names are decoded leniently first, so `%6Bey=`
 * and `k%65y=`, which authenticate like `key=`, are masked like it; the name stays as sent.
 * A name may also start after `;`, `#` or `?` (`x=1;key=...`, `...#key=...`), and the masked
 * value runs to the next `&`, as the query parser reads a value, so no part of it is left.
 * Masked whether or not keys are configured: a client may send one to a unit that needs none.
 */
export function maskQuery(raw: string): string {
  // Every request's log line passes here: one scan, and a new string only when something is masked.
  const at = new Separators(raw);
  let out = '';
  let kept = 0;
  let start = 0;
  while (start < raw.length) {
    const eq = at.next(start, true);
    if (eq < 0) break;
    if (raw[eq] !== '=') {
      start = eq + 1;
      continue;
    }
    if (eq > start && isCredentialName(lenientDecode(raw.slice(start, eq)))) {
      const amp = raw.indexOf('&', eq + 1);
      const end = amp < 0 ? raw.length : amp;
      out += `${raw.slice(kept, eq + 1)}${MASK}`;
      kept = end;
      start = end + 1;
      continue;
    }
    // Past this value: a name may start after its next separator.
    const sep = at.next(eq + 1, false);
    start = sep < 0 ? raw.length : sep + 1;
  }
  return kept === 0 ? raw : out + raw.slice(kept);
}

/** A text quoting what a client sent (an error message) with credentials masked as in a query. */
export function maskText(text: string): string {
  return maskQuery(text);
}

/**
 * A name that is a credential's once folded: every character but letters and digits removed
 * (control characters, spaces, a byte order mark, `_`, `-`, `.`) and letters folded to lower
 * case (the Kelvin sign and full-width letters too), with an index (`key[]`, `key[0]`) left
 * out as PHP-style clients write lists. `Key=`, `key%00=`, `key%20=` and `%EF%BB%BFkey=` open
 * nothing, but a client that sent one meant a key, so it is masked like one wherever a query
 * is recorded; so is `api_key=` or `token=`, a key for some other service.
 */
export function isCredentialName(name: string): boolean {
  if (MASKED.has(name)) return true;
  // Every request's names pass here (the log line's mask): an ordinary name (lower-case letters
  // and digits) is answered without building a string.
  if (name.length < 3 || plain(name)) return false;
  const bracket = name.charCodeAt(name.length - 1) === 0x5d ? name.indexOf('[') : -1;
  const folded = fold(bracket > 0 ? name.slice(0, bracket) : name);
  return folded !== undefined && MASKED.has(folded);
}

/** Lower-case ASCII letters and digits only: such a name is its own folded form. */
function plain(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** `name`'s letters and digits in lower case, or undefined once longer than any masked name. */
function fold(name: string): string | undefined {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) out += name[i];
      else if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(c + 0x20);
      else continue;
    } else {
      const ch = String.fromCodePoint(name.codePointAt(i)!);
      i += ch.length - 1;
      if (!LETTER_OR_DIGIT.test(ch)) continue;
      // NFKC: the Kelvin sign is a K, a full-width k is a k.
      out += ch.normalize('NFKC').toLowerCase();
    }
    if (out.length > LONGEST_MASKED) return undefined;
  }
  return out;
}

/** `key` carries credentials only when keys are configured (docs/decisions.md); else it may be an area. */
export function credentialNames(config: Pick<ServiceConfig, 'security'>): string[] {
  return config.security?.apiKey || config.security?.adminKey ? [KEY_PARAM] : [];
}

/**
 * A request URL with its credentials masked: the query, a fragment sent raw on the request
 * line, and `;` parameters of the path (`/mlds;key=...`), which name nothing the service reads
 * but may still carry a key.
 */
export function maskUrl(url: string): string {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === QUESTION || c === HASH || c === SEMI) return url.slice(0, i) + maskQuery(url.slice(i));
  }
  return url;
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
