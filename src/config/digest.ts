// The configuration's digest: SHA-256 (hex) of the configuration file's JSON in canonical form
// (keys sorted, no spaces) and of the files in its asset folders (fonts/, images/, sounds/),
// each as its path relative to the service folder and its content hash. The same configuration
// and files give the same digest on every unit and across restarts: the fleet's desired state
// compares configurations by it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileHash } from '../util/file-hash.js';
import type { AssetFolder } from './files.js';

const FOLDERS: readonly AssetFolder[] = ['fonts', 'images', 'sounds'];

/** JSON with every object's keys in sorted order, so the digest does not depend on how the file was written. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function assetFiles(serviceDir: string): string[] {
  const files: string[] = [];
  for (const folder of FOLDERS) {
    let names: string[];
    try {
      names = readdirSync(path.join(serviceDir, folder), { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const n of names) files.push(path.join(folder, n));
  }
  return files.sort();
}

/** The digest of the configuration in `configFile` and its folder's asset files; throws when it cannot be read. */
export function configDigest(configFile: string): string {
  const text = readFileSync(configFile, 'utf8');
  const hash = createHash('sha256').update('config\0').update(canonicalJson(JSON.parse(text)));
  const dir = path.dirname(path.resolve(configFile));
  for (const rel of assetFiles(dir)) {
    const h = fileHash(path.join(dir, rel));
    // A folder hashes as unreadable (EISDIR): skipped, its files are listed on their own.
    if (h.startsWith('unreadable:EISDIR')) continue;
    hash.update(`\0${rel}\0${h}`);
  }
  return hash.digest('hex');
}
