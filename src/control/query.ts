import { MldsError } from '../errors.js';

export interface QueryPair { name: string; value: string }

const utf8 = new TextDecoder('utf-8', { fatal: true });

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
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 0x25 /* % */) {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new MldsError('MLDS_BAD_ENCODING', `"${field}": "%${hex}" is not a valid percent-encoding (write a literal % as %25)`, field);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (ch === 0x2b /* + */) {
      bytes.push(0x20);
    } else {
      bytes.push(...Buffer.from(s[i], 'utf8'));
    }
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    throw new MldsError('MLDS_BAD_ENCODING', `"${field}": the percent-encoded bytes are not valid UTF-8`, field);
  }
}
