const loose = new TextDecoder('utf-8');

/**
 * Decodes a query name or value the way a forgiving parser does (`+` is a space, valid `%XX`
 * triplets are decoded, anything else is kept, bad UTF-8 becomes U+FFFD), never throwing.
 * For input that may fail strict validation: attributing a fault, finding a credential.
 */
export function lenientDecode(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return loose.decode(bytesOf(plus));
  }
}

/** Valid triplets as their byte, everything else as its own UTF-8. */
function bytesOf(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const hex = s[i] === '%' ? s.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      const cp = s.codePointAt(i)!;
      out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      if (cp > 0xffff) i++;
    }
  }
  return Uint8Array.from(out);
}

/**
 * Reads one field of a query that failed validation (it may be badly encoded), so a
 * faulty message can still be attributed to its display and confirmed with its inumber.
 * Names are decoded first: `%69d=main` names the display as `id=main` does.
 */
export function lenientField(raw: string, name: string): string | undefined {
  for (const piece of raw.replace(/^\?/, '').split('&')) {
    const eq = piece.indexOf('=');
    if (eq < 0 || lenientDecode(piece.slice(0, eq)) !== name) continue;
    try {
      return decodeURIComponent(piece.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      // Echo what was sent rather than a guess at what was meant.
      return piece.slice(eq + 1);
    }
  }
  return undefined;
}
