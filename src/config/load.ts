import path from 'node:path';
import { ConfigError, faultsFromAjv, type ConfigFault } from './faults.js';
import { depthFault, tooDeep } from './depth.js';
import { readRegularFile } from './files.js';
import { expandIncludes } from './include.js';
import { describeJsonSyntax } from './json-syntax.js';
import { normalize } from './normalize.js';
import { schemaValidator } from './schema.js';
import type { ServiceConfig } from './types.js';

/** Reads, expands, validates and normalizes config.json. Throws ConfigError with every fault found. */
export function loadConfig(file: string): ServiceConfig {
  const abs = path.resolve(file);
  const read = readRegularFile(abs);
  if ('error' in read) throw new ConfigError([{ path: '', message: `${abs} ${read.error}` }]);
  return parseConfig(read.text, path.dirname(abs), path.basename(abs));
}

/** `name` is how faults call the file (its base name: the full path is on /status and in the log). */
export function parseConfig(text: string, serviceDir: string, name = 'config.json'): ServiceConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError([{ path: '', message: describeJsonSyntax(name, text) }]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError([{ path: '', message: `${name} must hold a JSON object` }]);
  // Before any recursive walk: JSON.parse accepts nesting that would overflow the stack below.
  const deep = tooDeep(raw);
  if (deep !== undefined) throw new ConfigError([depthFault(deep)]);
  const faults: ConfigFault[] = [];
  try {
    const expanded = expandIncludes(raw, serviceDir, faults) as Record<string, unknown>;
    const validate = schemaValidator();
    if (!validate(expanded)) faults.push(...faultsFromAjv(validate.errors));
    const config = normalize(expanded, serviceDir, faults);
    if (faults.length > 0) throw new ConfigError(faults);
    return config;
  } catch (err) {
    // The last line of defence: whatever a check trips over is a fault of this file, shown on
    // /status and answered with 400 on /reload_config, never a 500 or a crash at start.
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([...faults, { path: '', message: `${name} could not be checked: ${(err as Error).message ?? String(err)}` }]);
  }
}
