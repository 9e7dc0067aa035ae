import { MldsError } from '../errors.js';

export interface QueryPair {
  name: string;
  value: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Splits and decodes a raw query string strictly: `+` is a space (form convention),
 * `%XX` must be two hex digits, and the bytes must be valid UTF-8. URLSearchParams would
 * silently turn bad input into U+FFFD; a display must refuse it instead.
 */
export function parseQuery(raw: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const piece of raw.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const rawName = eq < 0 ? piece : piece.slice(0, eq);
    const rawValue = eq < 0 ? '' : piece.slice(eq + 1);
    const name = decodeComponent(rawName, rawName);
    pairs.push({ name, value: decodeComponent(rawValue, name) });
  }
  return pairs;
}

function decodeComponent(s: string, field: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  if (ASCII.test(s)) {
    // What HTTP clients send. decodeURIComponent refuses the same bytes the strict decoder does
    // (test/control/query.test.ts compares them) at a fraction of its cost; a refusal takes the
    // byte-wise path, which names the fault. TextDecoder drops a leading byte order mark: so here.
    try {
      const out = decodeURIComponent(s.includes('+') ? s.replaceAll('+', ' ') : s);
      return out.charCodeAt(0) === 0xfeff ? out.slice(1) : out;
    } catch {
      /* below */
    }
  }
  // Worst case every character is 3 UTF-8 bytes; percent triplets only shrink.
  const bytes = new Uint8Array(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 0x25 /* % */) {
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hexValue(s.charCodeAt(i + 2));
      if (hi < 0 || lo < 0)
        throw new MldsError(
          'MLDS_BAD_ENCODING',
          `"${field}": "%${s.slice(i + 1, i + 3)}" is not a valid percent-encoding (write a literal % as %25)`,
          field,
        );
      bytes[n++] = hi * 16 + lo;
      i += 2;
    } else if (ch === 0x2b /* + */) {
      bytes[n++] = 0x20;
    } else if (ch < 0x80) {
      bytes[n++] = ch;
    } else {
      // A raw non-ASCII character (some clients send them unencoded): its own UTF-8 bytes.
      const cp = s.codePointAt(i)!;
      n += Buffer.from(bytes.buffer, n).write(String.fromCodePoint(cp), 'utf8');
      if (cp > 0xffff) i++;
    }
  }
  try {
    return utf8.decode(bytes.subarray(0, n));
  } catch {
    throw new MldsError('MLDS_BAD_ENCODING', `"${field}": the percent-encoded bytes are not valid UTF-8`, field);
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
