// The whole configuration check the service and `mlds test` run: the configuration's own
// rules, then the control queries it holds, checked by the control path's parser.
import { loadConfig } from '../config/load.js';
import type { ServiceConfig } from '../config/types.js';
import { checkConfigQueries } from '../control/config-queries.js';

/** Throws ConfigError with every fault found, as loadConfig does; `unitFile` is the unit's own part (unit.json). */
export function loadServiceConfig(file: string, unitFile?: string): ServiceConfig {
  return loadConfig(file, [checkConfigQueries], unitFile);
}
