// What a poller's response says to show: the body itself as a control query string, or,
// with a `mapper`, a control message built from a JSON response (docs/configuration.md,
// Pollers and mappers; the choices for empty bodies and non-text values are in docs/decisions.md).
import type { PollerMapper } from '../config/types.js';
import { resolvePointer } from './json-pointer.js';

export interface PollerQuery {
  /** The control query string to apply; '' when the body asks for nothing. */
  query: string;
  /** Mapped areas left out: their pointer named nothing, or an object or array. */
  leftOut: string[];
}

/** A body that cannot become a control message (a mapper's response that is not JSON). */
export class PollerBodyError extends Error {}

const text = (body: Buffer): string => body.toString('utf8').replace(/^\uFEFF/, '');

export function pollerQuery(body: Buffer, mapper: PollerMapper | undefined): PollerQuery {
  if (!mapper) {
    // A file served as-is ends with a newline, and a copied URL part may keep its "?".
    return { query: text(body).trim().replace(/^\?/, ''), leftOut: [] };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text(body));
  } catch (err) {
    throw new PollerBodyError(`the response is not JSON: ${(err as Error).message}`);
  }
  const pairs: Array<[string, string]> = [
    ['id', mapper.id],
    ['layout', mapper.layout],
  ];
  const leftOut: string[] = [];
  for (const [area, pointer] of Object.entries(mapper.areas)) {
    const r = resolvePointer(doc, pointer);
    const v = r.found ? r.value : undefined;
    // null empties the area; a number or boolean is written as JSON writes it.
    if (v === null) pairs.push([area, '']);
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') pairs.push([area, String(v)]);
    else leftOut.push(area);
  }
  return { query: pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'), leftOut };
}
