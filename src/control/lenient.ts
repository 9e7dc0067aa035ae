/**
 * Reads one field of a query that failed validation (it may be badly encoded), so a
 * faulty message can still be attributed to its display and confirmed with its inumber.
 */
export function lenientField(raw: string, name: string): string | undefined {
  for (const piece of raw.replace(/^\?/, '').split('&')) {
    const eq = piece.indexOf('=');
    if (eq < 0 || piece.slice(0, eq) !== name) continue;
    try {
      return decodeURIComponent(piece.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return piece.slice(eq + 1);
    }
  }
  return undefined;
}
