// Desired state documents, retained on `<prefix>/group/<group>/desired` and `<prefix>/<unit>/desired`
// (docs/fleet.md), every field optional:
//   {"rev": "<text>"|<number>, "config": {"url", "sha256"}, "software": {"version", "url", "sha256"},
//    "brightness": 0..100|"auto", "blank": true|false, "content": {"<display>": "<control query>"}}
// An empty retained message clears a document. A document comes from the broker: it is checked
// for size before it is decoded, and field by field after; a faulty one is named in the reported
// document and the rest of the merge stands without it.
import { SHA256_HEX } from '../util/sha256.js';
import { notJson } from './payload.js';

/** The largest document taken (bytes), before decoding. */
export const MAX_DESIRED_BYTES = 64 * 1024;
/** The most displays one document's `content` may name. */
export const MAX_CONTENT_DISPLAYS = 64;
/** The longest control query of one display's content. */
export const MAX_QUERY_CHARS = 16 * 1024;
const MAX_REV_CHARS = 64;
const MAX_URL_CHARS = 2048;
const MAX_VERSION_CHARS = 128;

export interface DesiredConfig {
  url: string;
  sha256: string;
}
export interface DesiredSoftware {
  version: string;
  url: string;
  sha256: string;
}
/** One display's content with the document (topic and rev) it came from: applied once per rev. */
export interface DesiredContent {
  query: string;
  topic: string;
  rev: string | null;
}

export interface Desired {
  rev?: string;
  config?: DesiredConfig;
  software?: DesiredSoftware;
  brightness?: number | 'auto';
  blank?: boolean;
  content?: Record<string, string>;
}

/** The documents merged: later wins field by field, `content` display by display. */
export interface Merged extends Omit<Desired, 'content'> {
  content: Record<string, DesiredContent>;
}

export type ParsedDesired = { ok: true; doc: Desired | undefined } | { ok: false; message: string };

const KNOWN = new Set(['rev', 'config', 'software', 'brightness', 'blank', 'content']);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class Fault extends Error {}
const fault = (field: string, message: string): never => {
  throw new Fault(`"${field}" ${message}`);
};

function text(o: Record<string, unknown>, field: string, name: string, max: number): string {
  const v = o[name];
  if (typeof v !== 'string' || v === '' || v.length > max) fault(field, `must be a text of 1 to ${max} characters`);
  return v as string;
}

function digest(o: Record<string, unknown>, field: string): string {
  const v = text(o, field, 'sha256', 64);
  if (!SHA256_HEX.test(v)) fault(field, 'must be 64 hexadecimal digits');
  return v.toLowerCase();
}

function urlOf(o: Record<string, unknown>, field: string): string {
  const v = text(o, field, 'url', MAX_URL_CHARS);
  if (!/^https?:\/\//i.test(v)) fault(field, 'must be an http:// or https:// URL');
  return v;
}

function objectField(o: Record<string, unknown>, name: string, keys: readonly string[]): Record<string, unknown> {
  const v = o[name];
  if (!isObj(v)) return fault(name, `must be an object with ${keys.map((k) => `"${k}"`).join(', ')}`);
  const extra = Object.keys(v).find((k) => !keys.includes(k));
  if (extra !== undefined) fault(`${name}.${extra.slice(0, 64)}`, `is not a field of "${name}" (${keys.join(', ')})`);
  return v;
}

function check(o: Record<string, unknown>): Desired {
  const unknown = Object.keys(o).find((k) => !KNOWN.has(k));
  if (unknown !== undefined) {
    fault(unknown.slice(0, 64), `is not a field of a desired document (${[...KNOWN].join(', ')})`);
  }
  const d: Desired = {};
  if (o.rev !== undefined) {
    const r = o.rev;
    if (typeof r === 'number' && Number.isSafeInteger(r) && r >= 0) d.rev = String(r);
    else if (typeof r === 'string' && r !== '' && r.length <= MAX_REV_CHARS) d.rev = r;
    else fault('rev', `must be a whole number or a text of 1 to ${MAX_REV_CHARS} characters`);
  }
  if (o.config !== undefined) {
    const c = objectField(o, 'config', ['url', 'sha256']);
    d.config = { url: urlOf(c, 'config.url'), sha256: digest(c, 'config.sha256') };
  }
  if (o.software !== undefined) {
    const s = objectField(o, 'software', ['version', 'url', 'sha256']);
    d.software = {
      version: text(s, 'software.version', 'version', MAX_VERSION_CHARS),
      url: urlOf(s, 'software.url'),
      sha256: digest(s, 'software.sha256'),
    };
  }
  if (o.brightness !== undefined) {
    const b = o.brightness;
    const level = typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 100;
    if (b !== 'auto' && !level) fault('brightness', 'must be a whole number from 0 to 100, or "auto"');
    d.brightness = b as number | 'auto';
  }
  if (o.blank !== undefined) {
    if (typeof o.blank !== 'boolean') fault('blank', 'must be true or false');
    d.blank = o.blank as boolean;
  }
  if (o.content !== undefined) {
    const c = o.content;
    if (!isObj(c)) return fault('content', 'must be an object of display ids and control queries');
    const ids = Object.keys(c);
    if (ids.length > MAX_CONTENT_DISPLAYS) {
      fault('content', `names ${ids.length} displays; at most ${MAX_CONTENT_DISPLAYS} are taken`);
    }
    d.content = {};
    for (const id of ids) {
      const q = c[id];
      const field = `content.${id.slice(0, 64)}`;
      if (id === '' || id.length > 64) fault(field, 'must name a display id of 1 to 64 characters');
      if (typeof q !== 'string' || q === '' || q.length > MAX_QUERY_CHARS) {
        fault(field, `must be a control query of 1 to ${MAX_QUERY_CHARS} characters`);
      }
      d.content[id] = q as string;
    }
  }
  return d;
}

/** A retained document as the broker gave it: undefined when cleared (empty), or why it is refused. */
export function parseDesired(payload: Buffer): ParsedDesired {
  if (payload.length === 0) return { ok: true, doc: undefined };
  if (payload.length > MAX_DESIRED_BYTES) {
    return { ok: false, message: `the document is ${payload.length} bytes; at most ${MAX_DESIRED_BYTES} are taken` };
  }
  const s = payload.toString('utf8');
  let o: unknown;
  try {
    o = JSON.parse(s);
  } catch {
    return { ok: false, message: notJson(s) };
  }
  if (!isObj(o)) return { ok: false, message: 'the document must be a JSON object' };
  try {
    return { ok: true, doc: check(o) };
  } catch (err) {
    if (err instanceof Fault) return { ok: false, message: err.message };
    throw err;
  }
}

/** The documents in merge order (the unit's groups in its order, then its own), each with its topic. */
export function mergeDesired(docs: ReadonlyArray<{ topic: string; doc: Desired | undefined }>): Merged {
  const m: Merged = { content: {} };
  for (const { topic, doc } of docs) {
    if (!doc) continue;
    const { content, ...rest } = doc;
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (m as unknown as Record<string, unknown>)[k] = v;
    for (const [id, query] of Object.entries(content ?? {})) m.content[id] = { query, topic, rev: doc.rev ?? null };
  }
  return m;
}
