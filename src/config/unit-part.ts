// The unit's own part of its configuration: unit.json in the state directory, a JSON merge patch
// (RFC 7396) over config.json. A pushed archive replaces config.json and its files, never this
// file, so identity, groups, credentials and output addresses stay the unit's own.
import { existsSync } from 'node:fs';
import { ConfigError } from './faults.js';
import { depthFault, MAX_CONFIG_BYTES, MAX_DEPTH, MAX_VALUES, tooDeep, tooManyValues } from './depth.js';
import { readRegularFile } from './files.js';
import { describeJsonSyntax } from './json-syntax.js';

export const UNIT_FILE = 'unit.json';

/** unit.json's object, undefined when there is no such file; throws ConfigError when it cannot be used. */
export function readUnitPart(file: string | undefined): Record<string, unknown> | undefined {
  if (file === undefined || !existsSync(file)) return undefined;
  const fault = (message: string): never => {
    throw new ConfigError([{ path: '', message: `${UNIT_FILE} ${message}` }]);
  };
  const read = readRegularFile(file, MAX_CONFIG_BYTES);
  if ('error' in read) return fault(`(${file}) ${read.error}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch {
    throw new ConfigError([{ path: '', message: describeJsonSyntax(UNIT_FILE, read.text) }]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return fault('must hold a JSON object (a merge patch over config.json)');
  const count = { values: 0 };
  const deep = tooDeep(parsed, MAX_DEPTH, 1, '', count);
  if (deep !== undefined) throw new ConfigError([depthFault(deep, UNIT_FILE)]);
  if (count.values > MAX_VALUES) throw new ConfigError([tooManyValues(count.values, UNIT_FILE)]);
  return parsed as Record<string, unknown>;
}
