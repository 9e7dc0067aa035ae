// What a feed URL answered when it was not the feed: a maintenance page, a JSON error, a login
// form. The decoder's own complaint ("wire type 4 is not valid here") tells an operator nothing;
// the content type and the first bytes tell them what the server sent instead.

/** How much of the answer is quoted. */
const HEAD_BYTES = 64;

/** The first bytes of a body, copied (the body itself may move to the decoding thread). */
export function headOf(body: Uint8Array): Buffer {
  return Buffer.from(body.subarray(0, HEAD_BYTES));
}

/**
 * The decoder's failure on a body that began with `head`: a text answer is said to be no
 * GTFS-realtime at all; a binary one keeps the decoder's word beside what came.
 */
export function notAFeed(
  err: unknown,
  head: Buffer,
  total: number,
  contentType: string | undefined,
  secrets: readonly string[],
): Error {
  const what = describeReceived(head, total, contentType, secrets);
  const why = err instanceof Error ? err.message : String(err);
  return new Error(looksLikeText(head) || !total ? `not a GTFS-realtime feed: ${what}` : `${why} (${what})`);
}

function looksLikeText(head: Buffer): boolean {
  // A torn character at the end of the slice is not a sign of binary data.
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/.test(head.toString('utf8').replace(/\ufffd+$/, ''));
}

/**
 * "the answer is text/html, 5120 bytes, beginning "<!DOCTYPE html>..."": text is quoted, other
 * bytes are shown in hex. `secrets` (the feed's header values: an API key a page may echo) are
 * masked.
 */
export function describeReceived(
  head: Buffer,
  total: number,
  contentType: string | undefined,
  secrets: readonly string[],
): string {
  const type = contentType ? contentType.replace(/[^\x20-\x7e]/g, '?').slice(0, 80) : 'no content type';
  if (!total) return `the answer is empty (${type})`;
  let shown = looksLikeText(head)
    ? `"${head
        .toString('utf8')
        .replace(/\ufffd+$/, '')
        .replace(/\s+/g, ' ')
        .trim()}${total > head.length ? '…' : ''}"`
    : `bytes ${[...head.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`;
  for (const s of secrets) if (s.length >= 4) shown = shown.split(s).join('***');
  return `the answer is ${type}, ${total} bytes, beginning ${shown}`;
}
