// The configuration digest (/status `config.digest`): SHA-256 of the effective configuration in
// canonical JSON (keys sorted, no spaces) and of the files it links, each by its name in the
// configuration and the SHA-256 of its bytes. Paths on disk and the time a file was written play
// no part, so units with the same configuration and files have the same digest, across restarts.
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { assetReferences } from './asset-references.js';
import { resolveAsset } from './files.js';
import type { ConfigDigests } from './types.js';
import { fileHash } from '../util/file-hash.js';

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

/** JSON with every object's keys in code point order: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObj(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The files the configuration links, by the name it gives them, with a content hash each. */
export function linkedFiles(config: Raw, dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const ref of assetReferences(config)) {
    const r = resolveAsset(dir, ref.folder, ref.name);
    files[`${ref.folder}/${path.posix.normalize(ref.name)}`] = 'error' in r ? 'missing' : fileHash(r.file);
  }
  const named = (field: string, name: unknown) => {
    if (typeof name === 'string') files[`${field}:${name}`] = fileHash(path.resolve(dir, name));
  };
  for (const section of ['mqtt', 'https'] as const) {
    const s = config[section];
    if (isObj(s)) for (const field of ['ca', 'cert', 'key']) named(`${section}.${field}`, s[field]);
  }
  const schedule = path.join(dir, 'brightness-schedule.json');
  if (isFile(schedule)) files['brightness-schedule.json'] = fileHash(schedule);
  return files;
}

export function configDigests(base: Raw, effective: Raw, unit: Raw | undefined, dir: string): ConfigDigests {
  return {
    digest: sha256Hex(canonicalJson({ config: effective, files: linkedFiles(effective, dir) })),
    base: sha256Hex(canonicalJson(base)),
    ...(unit ? { unit: sha256Hex(canonicalJson(unit)) } : {}),
  };
}

function isFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}
