import type { Controller } from './controller.js';
import type { SavedLevels } from './layers.js';

/**
 * The boot replay, and a changed display after a reload: its priority-0 query, then each
 * level above with the time it had left; a level that ended meanwhile is not shown.
 * Not stored again, not confirmed. Rejects with the first fault after trying all.
 */
export async function restoreLevels(
  ctl: Controller, id: string, levels: SavedLevels, source: 'replay' | 'reload', now: number,
  log: { info(obj: object, msg: string): void },
): Promise<void> {
  let fault: unknown;
  if (levels.base !== undefined) await ctl.apply(levels.base, source).catch((err: unknown) => { fault ??= err; });
  for (const l of levels.layers) {
    if (l.expiresAt <= now) {
      log.info({ id, priority: l.priority, expiredAt: new Date(l.expiresAt).toISOString() }, 'priority message ended while the service was down; not shown');
      continue;
    }
    await ctl.apply(l.query, source, l.expiresAt).catch((err: unknown) => { fault ??= err; });
  }
  if (fault) throw fault;
}
