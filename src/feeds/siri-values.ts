// The values of a SIRI document as either reader leaves them (siri.ts): fast-xml-parser's
// objects (an element's text as a string, or under `#text`) or SIRI-Lite JSON (PRIM's
// `{"value": ...}` objects, numbers, booleans), a repeated element as one or a list.
import { wallOffsetMs } from '../time/wall-clock.js';

export type Node = Record<string, unknown>;

/** How deep the readers go into a document. */
export const MAX_DEPTH = 32;

/** Every element named `name` under `node`, at any depth. */
export function all(node: unknown, name: string, depth = 0, out: Node[] = []): Node[] {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) all(n, name, depth + 1, out);
    return out;
  }
  for (const [k, v] of Object.entries(node as Node)) {
    if (k === name)
      for (const n of Array.isArray(v) ? v : [v]) {
        if (isNode(n)) out.push(n);
      }
    else all(v, name, depth + 1, out);
  }
  return out;
}

/** An element's text (the first of a repeated one); SIRI-Lite's `{"value": ...}` alike. */
export function text(v: unknown): string {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isNode(v)) return text(v['#text'] ?? v.value);
  return '';
}

const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?(Z|[+-]\d\d:\d\d)?$/;

/**
 * An xsd:dateTime as ms; undefined when absent or not a date-time. One without a zone is a
 * wall-clock time of `zone`; without `zone`, unreadable.
 */
export function dateTime(v: unknown, zone?: string): number | undefined {
  const m = DATE_TIME.exec(text(v));
  if (!m) return undefined;
  if (m[8]) {
    const t = Date.parse(m[0]);
    return Number.isFinite(t) ? t : undefined;
  }
  if (!zone) return undefined;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0), Math.floor(Number(m[7] ?? 0) * 1000));
  if (!Number.isFinite(wall)) return undefined;
  const t = wall - wallOffsetMs(zone, wall);
  return wall - wallOffsetMs(zone, t);
}

export const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);
export const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
