// alerts.json in the state folder: the alerts in force, the references that ended others, the
// levels this capability holds on each display and the alerts already spoken. Written with
// write-temp-fsync-rename after each change; read once at start, as the state store reads its
// files: every entry checked, one of the wrong form dropped (the file copied aside), a file
// that cannot be read or holds no such object moved aside (a FIFO unread), each reported.
import path from 'node:path';
import { listed } from '../control/saved-state.js';
import type { ServiceProblem } from '../problem.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { readRegularFileAsync } from '../util/regular-file.js';
import { keepAside } from '../util/set-aside.js';

export interface SavedAlert {
  key: string;
  identifier: string;
  sender: string;
  sent: string;
  event: string;
  severity: string;
  from: number;
  expiresAt?: number;
  /** The template filled in, and what speech says. */
  text: string;
  spoken: string;
}

export type Ended = [string, 'superseded' | 'cancelled'];
export interface SavedFeed {
  inForce: SavedAlert[];
  ended: Ended[];
}

/** A priority level this capability set on a display: which alert, and when the level runs out. */
export interface HeldLevel {
  key: string;
  text: string;
  levelUntil: number;
  /** `<layout>/<area>` it shows in. */ show?: string;
}

export interface SavedAlerts {
  feeds: Record<string, SavedFeed>;
  /** By `<display>|<priority>`. */
  held: Record<string, HeldLevel>;
  /** `<display>|<key>` of alerts spoken. */
  spoken: string[];
}

const FILE = 'alerts.json';
/** References remembered per feed: enough for any feed's history, bounded whatever it sends. */
export const MAX_ENDED = 1000;
export const MAX_SPOKEN = 1000;

export const emptySaved = (): SavedAlerts => ({ feeds: {}, held: {}, spoken: [] });

export interface Warn {
  warn(obj: object, msg: string): void;
}

/** What alerts.json holds, and what was wrong with it (the problems /status lists). */
export async function readSaved(
  dir: string | undefined,
  log?: Warn,
): Promise<{ saved: SavedAlerts; problems: ServiceProblem[] }> {
  if (!dir) return { saved: emptySaved(), problems: [] };
  const file = path.join(dir, FILE);
  const aside = (what: string, err: Error | undefined, move: boolean): ServiceProblem => {
    const { aside: to, where } = keepAside(file, move);
    const why = err ? ` (${err.message.split('\n')[0]})` : '';
    const then = move ? 'the alerts started without it' : 'the rest was loaded';
    const message = `${file} ${what}${why}; it was ${where}; ${then}`;
    log?.warn({ file, aside: to }, message);
    return { source: 'state', message, since: new Date().toISOString() };
  };
  let text: string;
  try {
    text = await readRegularFileAsync(file);
  } catch (err) {
    // Missing on a first start.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { saved: emptySaved(), problems: [] };
    return { saved: emptySaved(), problems: [aside('cannot be read', err as Error, true)] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const what = text.trim() === '' ? 'is empty' : 'is not valid JSON';
    return { saved: emptySaved(), problems: [aside(what, err as Error, true)] };
  }
  const checked = checkSaved(parsed);
  if (!checked) return { saved: emptySaved(), problems: [aside('does not hold a JSON object', undefined, true)] };
  const n = checked.dropped.length;
  if (!n) return { saved: checked.saved, problems: [] };
  const what = `has ${n} entr${n === 1 ? 'y' : 'ies'} of the wrong form (${listed(checked.dropped)}), dropped`;
  return { saved: checked.saved, problems: [aside(what, undefined, false)] };
}

export async function writeSaved(dir: string | undefined, s: SavedAlerts): Promise<void> {
  if (dir) await writeFileAtomic(path.join(dir, FILE), JSON.stringify(s));
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** JSON pointer segment (RFC 6901): a feed's key holds its URL's slashes. */
const seg = (s: string | number): string => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`;

const ALERT_TEXTS = ['key', 'identifier', 'sender', 'sent', 'event', 'severity', 'text', 'spoken'];

function isAlert(v: unknown): v is SavedAlert {
  return (
    isObj(v) &&
    ALERT_TEXTS.every((k) => isStr(v[k])) &&
    isNum(v.from) &&
    (v.expiresAt === undefined || isNum(v.expiresAt))
  );
}

const isEnded = (v: unknown): v is Ended =>
  Array.isArray(v) && v.length === 2 && isStr(v[0]) && (v[1] === 'superseded' || v[1] === 'cancelled');
const isHeld = (v: unknown): v is HeldLevel =>
  isObj(v) && isStr(v.key) && isStr(v.text) && isNum(v.levelUntil) && (v.show === undefined || isStr(v.show));

/**
 * Every entry of a parsed alerts.json checked; those of the wrong form are left out and named in
 * `dropped` (JSON paths). Undefined when it is not an object at all.
 */
export function checkSaved(parsed: unknown): { saved: SavedAlerts; dropped: string[] } | undefined {
  if (!isObj(parsed)) return undefined;
  const saved = emptySaved();
  const dropped: string[] = [];
  const part = (name: 'feeds' | 'held'): Record<string, unknown> => {
    const v = parsed[name];
    if (isObj(v)) return v;
    if (v !== undefined) dropped.push(seg(name));
    return {};
  };
  for (const [k, f] of Object.entries(part('feeds'))) {
    const at = seg('feeds') + seg(k);
    if (!isObj(f) || !Array.isArray(f.inForce) || !Array.isArray(f.ended)) {
      dropped.push(at);
      continue;
    }
    const inForce: SavedAlert[] = [];
    f.inForce.forEach((a, i) => {
      if (isAlert(a)) inForce.push(a);
      else dropped.push(`${at}/inForce/${i}`);
    });
    const ended: Ended[] = [];
    f.ended.forEach((e, i) => {
      if (isEnded(e)) ended.push(e);
      else dropped.push(`${at}/ended/${i}`);
    });
    saved.feeds[k] = { inForce, ended: ended.slice(-MAX_ENDED) };
  }
  for (const [k, h] of Object.entries(part('held'))) {
    if (isHeld(h)) saved.held[k] = h;
    else dropped.push(seg('held') + seg(k));
  }
  if (Array.isArray(parsed.spoken)) {
    parsed.spoken.forEach((s, i) => {
      if (isStr(s)) saved.spoken.push(s);
      else dropped.push(`/spoken/${i}`);
    });
    saved.spoken = saved.spoken.slice(-MAX_SPOKEN);
  } else if (parsed.spoken !== undefined) dropped.push('/spoken');
  return { saved, dropped };
}
