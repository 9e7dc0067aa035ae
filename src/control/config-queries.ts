// The control queries a configuration holds (a cron's `data` value, a poller's mapper) checked
// at load by the parser /mlds uses, so `mlds test` and a reload name what the layouts lack.
// config/load.ts runs it through its `checks` (the configuration knows nothing of the control path).
import { MldsError } from '../errors.js';
import { pointer } from '../config/faults.js';
import type { ServiceConfig } from '../config/types.js';
import { parseCommand } from './command.js';
import { credentialNames } from './credentials.js';

type Fault = (path: string, message: string) => void;

/**
 * A cron's `data` value and a poller's mapper go through parseCommand, as a request would.
 * Area keys the layout lacks are faults here even with unknownAreaKeys "ignore": that setting
 * forgives a TPCM, while these queries are written beside the layouts they name.
 */
export function checkConfigQueries(config: ServiceConfig, fault: Fault): void {
  const check = (query: string, at: (field: string) => string) => {
    try {
      const cmd = parseCommand(query, config, credentialNames(config));
      // A clear (priority=<p>&layout=) names no areas.
      if ('clear' in cmd) return;
      for (const name of cmd.ignored)
        fault(
          at(name),
          `layout "${cmd.layout.name}" of display "${cmd.display.id}" has no area "${name}" (it has: ` +
            `${cmd.layout.areas.map((a) => a.id).join(', ')})`,
        );
    } catch (err) {
      if (!(err instanceof MldsError)) throw err;
      fault(at(err.field ?? ''), err.message);
    }
  };
  config.crons.forEach((c, i) => {
    if (c.type === 'data' && c.value) check(c.value, () => pointer('crons', i, 'value'));
  });
  config.pollers.forEach((p, i) => {
    const m = p.mapper;
    if (!m || !m.id || !m.layout) return; // the schema said so
    // Empty values: the names are checked now, the values only exist once the feed answers.
    const query = [
      `id=${encodeURIComponent(m.id)}`,
      `layout=${encodeURIComponent(m.layout)}`,
      ...Object.keys(m.areas).map((a) => `${encodeURIComponent(a)}=`),
    ].join('&');
    const base = pointer('pollers', i, 'mapper');
    check(query, (field) =>
      field === 'id' || field === 'layout' ? `${base}/${field}` : `${base}/areas${pointer(field)}`,
    );
  });
}
