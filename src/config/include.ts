import { readFileSync } from 'node:fs';
import { resolveInclude } from './files.js';
import { escape, type ConfigFault } from './faults.js';

/**
 * Replaces every `{ "$include": "file.json" }` with that file's object, recursively.
 * Faults (missing file, bad JSON, a cycle) are collected with the JSON path of the include.
 */
export function expandIncludes(value: unknown, serviceDir: string, faults: ConfigFault[], at = '', chain: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v, i) => expandIncludes(v, serviceDir, faults, `${at}/${i}`, chain));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  if (typeof obj.$include === 'string' && Object.keys(obj).length === 1) {
    const r = resolveInclude(serviceDir, obj.$include);
    if ('error' in r) { faults.push({ path: at, message: `$include ${r.error}` }); return {}; }
    if (chain.includes(r.file)) { faults.push({ path: at, message: `$include "${obj.$include}" includes itself` }); return {}; }
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(r.file, 'utf8'));
    } catch (err) {
      faults.push({ path: at, message: `$include "${obj.$include}" is not valid JSON: ${(err as Error).message}` });
      return {};
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      faults.push({ path: at, message: `$include "${obj.$include}" must hold a JSON object` });
      return {};
    }
    return expandIncludes(parsed, serviceDir, faults, at, [...chain, r.file]);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = expandIncludes(v, serviceDir, faults, `${at}/${escape(k)}`, chain);
  return out;
}
