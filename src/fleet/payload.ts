// A command message's payload (docs/fleet.md) turned into the /mlds query the control
// path takes. Two forms:
//   query string  id=led1&layout=departure&route=128&inumber=42[&ts=<ms epoch>]
//   JSON          {"id","layout","areas":{"<area>":"<value>"},"inumber","keep","priority","expires","ts"}
//   announcement  {"id","announce":"<words>","priority":0|1,"inumber","ts"}: read aloud by the
//                 speech component (src/speech) instead of going to the control path
//   readout       {"id","readout":true,"inumber","ts"}: what the display shows, read aloud
// `ts` is the sender's clock (ms since the epoch); it never reaches the controller. Nothing
// here throws: every fault is a value with its code, so a hostile payload gets confirm=2.
import { findJsonSyntaxError } from '../config/json-syntax.js';
import { lenientField } from '../control/lenient.js';

/** Larger payloads are refused before they are decoded (64 KB). */
export const MAX_PAYLOAD = 64 * 1024;
/** A command whose `ts` is older than this is not acted on. */
export const MAX_AGE_MS = 60_000;

export type Parsed =
  | {
      ok: true;
      query: string;
      id?: string;
      inumber?: string;
      ts?: number;
      announce?: { text: string; priority: boolean };
      readout?: true;
    }
  | { ok: false; code: 'MLDS_MQTT_PAYLOAD' | 'MLDS_MQTT_TOO_LARGE'; message: string; id?: string; inumber?: string };

/** JSON fields passed on as query values of the same name. */
const PLAIN = ['id', 'layout', 'inumber', 'keep', 'priority', 'expires'] as const;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parsePayload(payload: Buffer): Parsed {
  if (payload.length > MAX_PAYLOAD)
    return {
      ok: false,
      code: 'MLDS_MQTT_TOO_LARGE',
      message: `the payload is ${payload.length} bytes; at most ${MAX_PAYLOAD} are taken`,
    };
  let text: string;
  try {
    text = utf8.decode(payload).trim();
  } catch {
    return bad('the payload is not valid UTF-8');
  }
  if (text === '') return bad('the payload is empty');
  return text.startsWith('{') ? fromJson(text) : fromQuery(text);
}

function bad(message: string, id?: string, inumber?: string): Parsed {
  return { ok: false, code: 'MLDS_MQTT_PAYLOAD', message, id, inumber };
}

function fromQuery(text: string): Parsed {
  const raw = text.startsWith('?') ? text.slice(1) : text;
  const id = lenientField(raw, 'id');
  const inumber = lenientField(raw, 'inumber');
  const pieces = raw.split('&');
  const tsPieces = pieces.filter((p) => p.startsWith('ts='));
  if (tsPieces.length > 1) return bad('"ts" must appear at most once', id, inumber);
  let ts: number | undefined;
  if (tsPieces.length) {
    ts = timestamp(tsPieces[0].slice(3));
    if (ts === undefined) return bad('"ts" must be milliseconds since 1970 (a whole number)', id, inumber);
  }
  const query = tsPieces.length ? pieces.filter((p) => !p.startsWith('ts=')).join('&') : raw;
  return { ok: true, query, id, inumber, ts };
}

function fromJson(text: string): Parsed {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return bad(notJson(text));
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return bad('the payload must be a JSON object');
  const o = doc as Record<string, unknown>;
  const id = scalar(o.id);
  const inumber = scalar(o.inumber);
  if ('cmd' in o) return bad("admin commands are taken only from the unit's own admin topic", id, inumber);
  if ('announce' in o) return announcement(o, id, inumber);
  if ('readout' in o) return readout(o, id, inumber);
  const params = new URLSearchParams();
  for (const name of PLAIN) {
    if (o[name] === undefined) continue;
    const v = scalar(o[name]);
    if (v === undefined) return bad(`"${name}" must be a string or a number`, id, inumber);
    params.append(name, v);
  }
  if (o.areas !== undefined) {
    if (typeof o.areas !== 'object' || o.areas === null || Array.isArray(o.areas))
      return bad('"areas" must be an object of area ids and values', id, inumber);
    for (const [area, value] of Object.entries(o.areas)) {
      const v = scalar(value);
      if (v === undefined) return bad(`"areas.${area}" must be a string or a number`, id, inumber);
      params.append(area, v);
    }
  }
  const unknown = Object.keys(o).filter(
    (k) => !(PLAIN as readonly string[]).includes(k) && k !== 'areas' && k !== 'ts',
  );
  if (unknown.length) return bad(`unknown field "${unknown[0]}" (areas go inside "areas")`, id, inumber);
  let ts: number | undefined;
  if (o.ts !== undefined) {
    ts = timestamp(scalar(o.ts) ?? '');
    if (ts === undefined) return bad('"ts" must be milliseconds since 1970 (a whole number)', id, inumber);
  }
  // URLSearchParams writes a space as `+`, which the control path reads as a space.
  return { ok: true, query: params.toString(), id, inumber, ts };
}

/** `{"id","announce","priority","inumber","ts"}`: words for the speech component, not a control message. */
function announcement(o: Record<string, unknown>, id: string | undefined, inumber: string | undefined): Parsed {
  if (typeof o.announce !== 'string') return bad('"announce" must be a string of words', id, inumber);
  if (id === undefined || id === '') return bad('"announce" needs the "id" of the display that speaks it', id, inumber);
  const other = Object.keys(o).find((k) => !['id', 'announce', 'priority', 'inumber', 'ts'].includes(k));
  if (other) return bad(`"${other}" does not go with "announce" (an announcement is words only)`, id, inumber);
  const p = o.priority === undefined ? '0' : String(o.priority);
  if (!['0', '1', 'true', 'false'].includes(p)) return bad('"priority" of an announcement must be 0 or 1', id, inumber);
  let ts: number | undefined;
  if (o.ts !== undefined) {
    ts = timestamp(scalar(o.ts) ?? '');
    if (ts === undefined) return bad('"ts" must be milliseconds since 1970 (a whole number)', id, inumber);
  }
  return { ok: true, query: '', id, inumber, ts, announce: { text: o.announce, priority: p === '1' || p === 'true' } };
}

/** `{"id","readout":true,"inumber","ts"}`: a readout for the speech component, not a control message. */
function readout(o: Record<string, unknown>, id: string | undefined, inumber: string | undefined): Parsed {
  if (o.readout !== true) return bad('"readout" must be true', id, inumber);
  if (id === undefined || id === '') return bad('"readout" needs the "id" of the display that is read', id, inumber);
  const other = Object.keys(o).find((k) => !['id', 'readout', 'inumber', 'ts'].includes(k));
  if (other) return bad(`"${other}" does not go with "readout"`, id, inumber);
  let ts: number | undefined;
  if (o.ts !== undefined) {
    ts = timestamp(scalar(o.ts) ?? '');
    if (ts === undefined) return bad('"ts" must be milliseconds since 1970 (a whole number)', id, inumber);
  }
  return { ok: true, query: '', id, inumber, ts, readout: true };
}

/**
 * Why a payload is not JSON: where it goes wrong, none of its text. V8's message quotes the
 * text around the mistake, which is the key itself when an `adminKey` lost its quotes.
 */
export function notJson(text: string): string {
  const e = findJsonSyntaxError(text);
  const where = e ? ` (${e.endsEarly ? 'it ends early, ' : ''}line ${e.line}, column ${e.column})` : '';
  return `the payload is not JSON${where}; none of it is quoted here, as it may hold a key`;
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function timestamp(s: string): number | undefined {
  return /^\d{1,15}$/.test(s) ? Number(s) : undefined;
}
