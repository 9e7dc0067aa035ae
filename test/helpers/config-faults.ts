// The faults a configuration check finds: the service's (loadServiceConfig) in the test
// configuration after `mutate`, or the loader's (loadConfig) in a file; [] when it loads.
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import { loadServiceConfig } from '../../src/runtime/load-config.js';
import { baseConfig, serviceDir } from './service.js';

export type Cfg = ReturnType<typeof baseConfig>;
export type Fault = { path: string; message: string };

function faultsOf(load: () => unknown): Fault[] {
  try {
    load();
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.faults;
    throw err;
  }
}

export function configFaults(mutate: (c: Cfg) => void, setup?: (dir: string) => void): Fault[] {
  const c = baseConfig();
  mutate(c);
  const sd = serviceDir(c);
  try {
    return faultsOf(() => {
      setup?.(sd.dir);
      loadServiceConfig(sd.configFile);
    });
  } finally {
    sd.cleanup();
  }
}

/** What loadConfig finds in `configFile`. */
export function fileFaults(configFile: string): Fault[] {
  return faultsOf(() => loadConfig(configFile));
}
