// The faults the service's configuration check (loadServiceConfig) finds in the test configuration after `mutate`, or [] when it loads.
import { ConfigError } from '../../src/config/faults.js';
import { loadServiceConfig } from '../../src/runtime/load-config.js';
import { baseConfig, serviceDir } from './service.js';

export type Cfg = ReturnType<typeof baseConfig>;

export function configFaults(mutate: (c: Cfg) => void, setup?: (dir: string) => void): Array<{ path: string; message: string }> {
  const c = baseConfig();
  mutate(c);
  const sd = serviceDir(c);
  try {
    setup?.(sd.dir);
    loadServiceConfig(sd.configFile);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.faults;
    throw err;
  } finally {
    sd.cleanup();
  }
}
