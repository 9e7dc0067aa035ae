import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, faultsFromAjv, type ConfigFault } from './faults.js';
import { expandIncludes } from './include.js';
import { normalize } from './normalize.js';
import { validateSchema } from './schema.js';
import type { ServiceConfig } from './types.js';

/** Reads, expands, validates and normalizes config.json. Throws ConfigError with every fault found. */
export function loadConfig(file: string): ServiceConfig {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    throw new ConfigError([{ path: '', message: `cannot read ${abs}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` }]);
  }
  return parseConfig(text, path.dirname(abs));
}

export function parseConfig(text: string, serviceDir: string): ServiceConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([{ path: '', message: `config.json is not valid JSON: ${(err as Error).message}` }]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError([{ path: '', message: 'config.json must hold a JSON object' }]);
  const faults: ConfigFault[] = [];
  const expanded = expandIncludes(raw, serviceDir, faults) as Record<string, unknown>;
  if (!validateSchema(expanded)) faults.push(...faultsFromAjv(validateSchema.errors));
  const config = normalize(expanded, serviceDir, faults);
  if (faults.length > 0) throw new ConfigError(faults);
  return config;
}
