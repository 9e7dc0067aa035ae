import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { isoTime } from '../util/clock.js';

/** The specification's automatic re-check of the configuration. */
export const RECHECK_SECONDS = 3000;

/**
 * Reloads the configuration every `seconds` on the runtime's clock. A faulty file leaves the
 * running configuration alone (the faults show on /status); an unchanged one disturbs nothing.
 */
export function recheckComponent(seconds = RECHECK_SECONDS): Component {
  let timer: unknown;
  let ctx: RuntimeContext | undefined;
  let lastRunAt: number | undefined;
  let lastResult = 'not run yet';
  const arm = () => {
    if (!ctx) return;
    const c = ctx;
    timer = c.clock.setTimeout(() => {
      lastRunAt = c.clock.now();
      c.reload()
        .then(
          (r) => {
            lastResult = r.changed ? 'reloaded' : 'unchanged';
          },
          (err: Error) => {
            lastResult = `faulty: ${err.message}`;
          },
        )
        .finally(arm);
    }, seconds * 1000);
  };
  return {
    name: 'recheck',
    async start(c) {
      ctx = c;
      arm();
    },
    async reload() {
      /* the period is not configurable: nothing to follow */
    },
    async stop() {
      if (ctx && timer !== undefined) ctx.clock.clearTimeout(timer);
      ctx = undefined;
    },
    status: () => ({ everySeconds: seconds, lastRunAt: isoTime(lastRunAt), lastResult }),
  };
}
