import type { SavedLayer } from './layers.js';
import type { CommandRecord } from './state.js';

/** confirm is 0, 1 or 2 (checked on load). */
export interface SavedFeedback {
  confirm: number;
  inumber: string;
}

export interface SavedState {
  /**
   * Snapshot files only: the first journal generation not contained in the snapshot, so
   * journals from this one on are applied over it when loading.
   */
  gen?: number;
  /** Last accepted request per display id: what the boot replay applies. */
  lastRequest: Record<string, CommandRecord>;
  /** Last confirmation sent per display id, so an equal one is not sent again after a restart. */
  lastFeedback: Record<string, SavedFeedback>;
  /** Levels above priority 0 per display id, each until its expiresAt. */
  layers: Record<string, SavedLayer[]>;
}

/** Keyed by display ids from a file: no prototype, so an id like "__proto__" is only a key. */
export function emptyState(): SavedState {
  return {
    lastRequest: Object.create(null) as SavedState['lastRequest'],
    lastFeedback: Object.create(null) as SavedState['lastFeedback'],
    layers: Object.create(null) as SavedState['layers'],
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function commandRecord(v: unknown): CommandRecord | undefined {
  if (!isObject(v) || typeof v.query !== 'string' || typeof v.at !== 'number' || !Number.isFinite(v.at))
    return undefined;
  if (v.inumber !== undefined && typeof v.inumber !== 'string') return undefined;
  if (v.source !== undefined && typeof v.source !== 'string') return undefined;
  return {
    query: v.query,
    at: v.at,
    ...(v.inumber !== undefined ? { inumber: v.inumber } : {}),
    source: v.source ?? 'http',
  };
}

const MAX_LAYERS = 9;

function layerList(v: unknown): SavedLayer[] | undefined {
  if (!Array.isArray(v) || v.length > MAX_LAYERS) return undefined;
  const out: SavedLayer[] = [];
  for (const l of v as unknown[]) {
    const rec = commandRecord(l);
    if (
      !rec ||
      !isObject(l) ||
      !Number.isInteger(l.priority) ||
      (l.priority as number) < 1 ||
      (l.priority as number) > MAX_LAYERS
    )
      return undefined;
    if (typeof l.expiresAt !== 'number' || !Number.isFinite(l.expiresAt)) return undefined;
    out.push({
      priority: l.priority as number,
      query: rec.query,
      at: rec.at,
      expiresAt: l.expiresAt,
      source: rec.source,
      ...(rec.inumber !== undefined ? { inumber: rec.inumber } : {}),
    });
  }
  return out;
}

function feedback(v: unknown): SavedFeedback | undefined {
  if (!isObject(v) || (v.confirm !== 0 && v.confirm !== 1 && v.confirm !== 2) || typeof v.inumber !== 'string')
    return undefined;
  return { confirm: v.confirm, inumber: v.inumber };
}

/**
 * Checks every field of a parsed state file. Entries of the wrong shape are dropped and
 * named in `dropped` (JSON paths); undefined when the file does not hold an object at all.
 */
export function checkSavedState(parsed: unknown): { state: SavedState; dropped: string[] } | undefined {
  if (!isObject(parsed)) return undefined;
  const state = emptyState();
  const dropped: string[] = [];
  const section = <T>(name: keyof SavedState, check: (v: unknown) => T | undefined, into: Record<string, T>) => {
    const v = parsed[name];
    if (v === undefined) return;
    if (!isObject(v)) {
      dropped.push(`/${name}`);
      return;
    }
    for (const [id, entry] of Object.entries(v)) {
      const ok = check(entry);
      if (ok) into[id] = ok;
      else dropped.push(`/${name}/${id}`);
    }
  };
  if (parsed.gen !== undefined) {
    if (Number.isSafeInteger(parsed.gen) && (parsed.gen as number) >= 0) state.gen = parsed.gen as number;
    else dropped.push('/gen');
  }
  section('lastRequest', commandRecord, state.lastRequest);
  section('lastFeedback', feedback, state.lastFeedback);
  section('layers', layerList, state.layers);
  return { state, dropped };
}

/** One journal line: a change since the snapshot, `["r", id, record]`, `["f", id, feedback]` or `["l", id, levels]`. */
export function journalLine(
  kind: 'r' | 'f' | 'l',
  id: string,
  value: CommandRecord | SavedFeedback | SavedLayer[],
): string {
  return `${JSON.stringify([kind, id, value])}\n`;
}

/** Applies a journal's lines in order; returns how many lines were unreadable or of the wrong form. */
export function applyJournal(state: SavedState, text: string): number {
  let bad = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      bad++;
      continue;
    }
    if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[1] !== 'string') {
      bad++;
      continue;
    }
    const [kind, id, value] = entry as [unknown, string, unknown];
    const rec = kind === 'r' ? commandRecord(value) : undefined;
    const fb = kind === 'f' ? feedback(value) : undefined;
    const layers = kind === 'l' ? layerList(value) : undefined;
    if (rec) state.lastRequest[id] = rec;
    else if (fb) state.lastFeedback[id] = fb;
    else if (layers?.length) state.layers[id] = layers;
    else if (layers) delete state.layers[id];
    else bad++;
  }
  return bad;
}

/** Paths checkSavedState dropped, for a message: the first five and how many more. */
export function listed(paths: string[]): string {
  return paths.length <= 5 ? paths.join(', ') : `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more`;
}
