import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { AreaConfig, DisplayConfig, ServiceConfig, UnitConfig } from './types.js';
import { kindOf } from './area-types/registry.js';
import { PACKAGE_FONT_DIR } from '../text/fonts.js';
import { fileHash, keepFileHashes } from '../util/file-hash.js';

/** What a reload did to each display, by id. */
export interface ReloadReport {
  changed: boolean;
  added: string[];
  changedDisplays: string[];
  removed: string[];
  unchanged: string[];
}

/**
 * Every font of the fallback chain, by content: a glyph missing from one font is drawn from
 * another. The same fonts copied from the package into the service folder are no change.
 */
function fontFolderHash(dirs: string[]): string {
  const hashes = new Set<string>();
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => /\.(ttf|otf)$/i.test(n));
    } catch {
      /* no folder: no fonts */
    }
    for (const n of names) hashes.add(fileHash(path.join(dir, n)));
  }
  return createHash('sha256')
    .update([...hashes].sort().join('\n'))
    .digest('base64');
}

/** The files an area's configuration names: fonts, graphics, and a file type's params and defaultValue. */
function areaFiles(a: AreaConfig): string[] {
  const out: string[] = [];
  if ('font' in a && a.font) out.push(a.font);
  if ('fonts' in a && a.fonts) out.push(...a.fonts);
  if ('graphics' in a && a.graphics) out.push(...a.graphics);
  if (kindOf(a.type).files && 'params' in a) {
    out.push(...Object.values(a.params));
    if (a.defaultValue) out.push(a.defaultValue);
  }
  return out;
}

function filesOf(d: DisplayConfig): string[] {
  const files = new Set<string>();
  if (d.startScreen.image) files.add(d.startScreen.image);
  for (const layout of d.layouts.values()) {
    for (const a of layout.areas) for (const f of areaFiles(a)) files.add(f);
  }
  return [...files].sort();
}

const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x instanceof Map ? [...x.entries()] : x));

/**
 * Same fingerprint = the display looks and behaves the same: its normalized configuration,
 * the settings every display draws with, and the bytes of every file it shows (a picture
 * replaced under the same name is a change; a file touched but unchanged is not).
 */
export function displayFingerprint(d: DisplayConfig, config: ServiceConfig, fonts: string): string {
  // Files by content, not by where they are: a unit that gets the package's font copied into its own fonts/ is
  // unchanged.
  const files = new Map(filesOf(d).map((f) => [f, `file:${fileHash(f)}`]));
  const text = JSON.stringify(
    { d, fps: config.fps, effect: config.effectDurationMs, tz: config.timezone },
    (_k, x: unknown) => {
      if (x instanceof Map) return [...x.entries()];
      return typeof x === 'string' ? (files.get(x) ?? x) : x;
    },
  );
  return createHash('sha256').update(text).update(`\nfonts=${fonts}`).digest('base64');
}

/** A unit is the same physical panel while its output and size are the same. */
export function unitFingerprint(u: UnitConfig): string {
  return json({ output: u.output, width: u.width, height: u.height });
}

export function displayFingerprints(config: ServiceConfig): Map<string, string> {
  const fonts = fontFolderHash([path.join(config.dir, 'fonts'), PACKAGE_FONT_DIR]);
  const prints = new Map(config.displays.map((d) => [d.id, displayFingerprint(d, config, fonts)]));
  keepFileHashes();
  return prints;
}

/** Everything but the displays: a change here (crons, security...) swaps the configuration without touching a panel. */
export function serviceFingerprint(config: ServiceConfig): string {
  // The digests change with any file: the displays' fingerprints say which of those matter.
  const { displays: _d, displayById: _m, units: _u, digests: _g, ...rest } = config;
  return json(rest);
}

/** Classifies every display id of the old and new configurations. */
export function diffDisplays(before: Map<string, string>, after: Map<string, string>): Omit<ReloadReport, 'changed'> {
  const r = {
    added: [] as string[],
    changedDisplays: [] as string[],
    removed: [] as string[],
    unchanged: [] as string[],
  };
  for (const [id, fp] of after) {
    const old = before.get(id);
    if (old === undefined) r.added.push(id);
    else if (old === fp) r.unchanged.push(id);
    else r.changedDisplays.push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) r.removed.push(id);
  return r;
}

/** What /load_config answers: the reload, and the files the archive did not bring back (moved to the backup). */
export type ArchiveLoadReport = ReloadReport & {
  backup: string;
  removedFiles: string[];
  removedFilesNotListed: number;
};

/** A reload in one line: the display ids added, changed and removed. */
export function summary(r: ReloadReport): string {
  if (!r.changed) return 'nothing changed';
  const part = (label: string, ids: string[]) => (ids.length ? `${label} ${ids.join(', ')}` : '');
  return [
    part('added', r.added),
    part('changed', r.changedDisplays),
    part('removed', r.removed),
    `${r.unchanged.length} unchanged`,
  ]
    .filter(Boolean)
    .join('; ');
}
