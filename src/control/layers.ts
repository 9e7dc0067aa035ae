// Priority levels of a display: what is saved of them, the query that rebuilds a level that
// `keep` merged, and the line each change of what an area shows leaves in shown.log.
import type { Command } from './command.js';
import { encodeQuery } from './command.js';
import type { AreaState, Layer } from './state.js';
import type { ShownEntry } from '../log/shown-log.js';

/** A level above 0 as the state journal keeps it; the boot replay restores it until expiresAt. */
export interface SavedLayer {
  priority: number;
  query: string;
  at: number;
  expiresAt: number;
  source: string;
  inumber?: string;
}

/** What rebuilds a display's levels: its priority-0 query and the levels above (a replay, a reload). */
export interface SavedLevels {
  base?: string;
  layers: SavedLayer[];
}

/** Highest first; a level replaces the one of equal priority. */
export function placeLayer(layers: Layer[], layer: Layer): Layer[] {
  const out = layers.filter((l) => l.priority !== layer.priority);
  const at = out.findIndex((l) => l.priority < layer.priority);
  out.splice(at < 0 ? out.length : at, 0, layer);
  return out;
}

export function savedLayers(layers: readonly Layer[]): SavedLayer[] {
  return layers
    .filter((l) => l.priority > 0 && l.expiresAt !== undefined)
    .map((l) => ({
      priority: l.priority,
      query: l.query,
      at: l.since,
      expiresAt: l.expiresAt!,
      source: l.source,
      ...(l.inumber !== undefined ? { inumber: l.inumber } : {}),
    }));
}

/** Content a command put there (a request value, '' included), as opposed to a defaultValue or blank after a ttl. */
export const requested = (a: AreaState): boolean => a.value !== undefined;

/**
 * The query that shows what a `keep` command left: every area holding a request value with
 * its overrides, the command's inumber and level. Replayed, it rebuilds the level (each ttl
 * starts again, as any replay's does).
 */
export function mergedQuery(cmd: Command, areas: ReadonlyMap<string, AreaState>): string {
  const pairs = [
    { name: 'id', value: cmd.display.id },
    { name: 'layout', value: cmd.layout.name },
  ];
  for (const [id, a] of areas) {
    if (requested(a)) pairs.push({ name: id, value: a.value! });
    if (a.fontColor)
      pairs.push({ name: `fontColor[${id}]`, value: `${a.fontColor.r}_${a.fontColor.g}_${a.fontColor.b}` });
    if (a.fontSize !== undefined) pairs.push({ name: `fontSize[${id}]`, value: String(a.fontSize) });
  }
  if (cmd.inumber !== undefined) pairs.push({ name: 'inumber', value: cmd.inumber });
  if (cmd.priority > 0)
    pairs.push({ name: 'priority', value: String(cmd.priority) }, { name: 'expires', value: String(cmd.expires) });
  return encodeQuery(pairs);
}

let isoAt = NaN;
let iso = '';

export function shownLine(displayId: string, layer: Layer, a: AreaState, now: number, ttl: boolean): string {
  const end = Math.min(a.expiresAt ?? Infinity, layer.expiresAt ?? Infinity);
  // The areas of one change share their start.
  if (now !== isoAt) {
    isoAt = now;
    iso = new Date(now).toISOString();
  }
  const start = iso;
  const entry: ShownEntry = {
    id: displayId,
    layout: layer.layout,
    area: a.area.id,
    value: a.value ?? null,
    content: a.source,
    source: ttl ? 'ttl' : layer.source,
    inumber: (ttl ? undefined : layer.inumber) ?? null,
    priority: layer.priority,
    start,
    end: end === Infinity ? null : new Date(end).toISOString(),
  };
  return `${JSON.stringify(entry)}\n`;
}
