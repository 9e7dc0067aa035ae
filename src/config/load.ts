import path from 'node:path';
import { ConfigError, faultsFromAjv, MAX_FAULTS, type ConfigFault } from './faults.js';
import { depthFault, MAX_CONFIG_BYTES, MAX_DEPTH, MAX_VALUES, tooDeep, tooManyValues } from './depth.js';
import { configDigests } from './digest.js';
import { readRegularFile } from './files.js';
import { expandIncludes } from './include.js';
import { describeJsonSyntax } from './json-syntax.js';
import { normalize } from './normalize.js';
import { configSchema, schemaValidator } from './schema.js';
import { applyMergePatch } from './merge-patch.js';
import { readUnitPart } from './unit-part.js';
import { unknownFields } from './unknown-fields.js';
import type { ServiceConfig } from './types.js';

/**
 * A check of the normalized configuration by a layer above it (the control path checks the
 * queries crons and pollers hold), run before the faults are thrown so one load lists them all.
 */
export type ConfigCheck = (config: ServiceConfig, fault: (path: string, message: string) => void) => void;

/**
 * Reads, expands, validates and normalizes config.json, with `unitFile` (the unit's own part,
 * when it exists) merged over it. Throws ConfigError with the faults found (the first MAX_FAULTS and a count).
 */
export function loadConfig(file: string, checks: readonly ConfigCheck[] = [], unitFile?: string): ServiceConfig {
  const abs = path.resolve(file);
  const read = readRegularFile(abs, MAX_CONFIG_BYTES);
  if ('error' in read) throw new ConfigError([{ path: '', message: `${abs} ${read.error}` }]);
  return parseConfig(read.text, path.dirname(abs), path.basename(abs), checks, readUnitPart(unitFile));
}

/**
 * `name` is how faults call the file (its base name: the full path is on /status and in the log).
 * `unit` is merged over the file once its includes are expanded, so it can patch what they hold.
 */
export function parseConfig(
  text: string,
  serviceDir: string,
  name = 'config.json',
  checks: readonly ConfigCheck[] = [],
  unit?: Record<string, unknown>,
): ServiceConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError([{ path: '', message: describeJsonSyntax(name, text) }]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError([{ path: '', message: `${name} must hold a JSON object` }]);
  // Before any recursive walk: JSON.parse accepts nesting that would overflow the stack below.
  const count = { values: 0 };
  const deep = tooDeep(raw, MAX_DEPTH, 1, '', count);
  if (deep !== undefined) throw new ConfigError([depthFault(deep)]);
  // Bounded before ajv, whose allErrors makes an error object for every offending value.
  // Each part on its own: merged before the expansion, a patch of an `$include`d section would hide the include.
  const unknown = unknownFields(raw, configSchema);
  if (unit) {
    const own = unknownFields(unit, configSchema);
    unknown.faults.push(...own.faults.slice(0, MAX_FAULTS - unknown.faults.length));
    unknown.total += own.total;
  }
  if (unknown.total >= MAX_FAULTS) throw new ConfigError(unknown.faults, unknown.total);
  if (count.values > MAX_VALUES) throw new ConfigError([tooManyValues(count.values)]);
  const faults: ConfigFault[] = [];
  try {
    const base = expandIncludes(raw, serviceDir, faults, {
      bytes: MAX_CONFIG_BYTES - text.length,
      values: MAX_VALUES - count.values,
    }) as Record<string, unknown>;
    const expanded = unit ? (applyMergePatch(base, unit) as Record<string, unknown>) : base;
    const validate = schemaValidator();
    if (!validate(expanded)) {
      const errors = validate.errors ?? [];
      const before = faults.length;
      for (const f of faultsFromAjv(errors)) faults.push(f);
      // Too many to list: stop here (normalize would only add to them), counting what ajv found.
      if (faults.length >= MAX_FAULTS) throw new ConfigError(faults, before + errors.length);
    }
    const config = normalize(expanded, serviceDir, faults);
    for (const check of checks) check(config, (p, message) => faults.push({ path: p, message }));
    if (faults.length > 0) throw new ConfigError(faults);
    config.digests = configDigests(base, expanded, unit, serviceDir);
    return config;
  } catch (err) {
    // The last line of defence: whatever a check trips over is a fault of this file, shown on
    // /status and answered with 400 on /reload_config, never a 500 or a crash at start.
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([
      ...faults,
      { path: '', message: `${name} could not be checked: ${(err as Error).message ?? String(err)}` },
    ]);
  }
}
