// A command is answered 200 only once it is stored: a restart must show it. These refuse it
// before it changes anything while the state folder cannot be written, and write a committed
// change's journal line, taking the change back when the line cannot be written. Either way
// the command is confirmed 0: it was not executed.
import type { DisplayConfig } from '../config/types.js';
import { MldsError } from '../errors.js';
import type { ClearCommand, Command } from './command.js';
import type { StateStore } from './store.js';

export interface StorableDeps {
  store: Pick<StateStore, 'unwritable'>;
  log: { warn(obj: object, msg: string): void };
  confirm(display: DisplayConfig, confirm: 0 | 1 | 2, inumber: string): void;
}

export const unstorableMessage = (why: string): string =>
  `${why}: the command was not applied (a restart would not show it); retry later`;

function unstorable(deps: StorableDeps, cmd: Command | ClearCommand, source: string, why: string): MldsError {
  // An HTTP command is logged once, on its request line.
  if (source !== 'http')
    deps.log.warn({ id: cmd.display.id, inumber: cmd.inumber, source, why }, 'command refused: it cannot be stored');
  return new MldsError('MLDS_STATE_UNWRITABLE', unstorableMessage(why));
}

/** Throws MLDS_STATE_UNWRITABLE (confirm=0) while the state folder cannot be written. */
export function refuseUnlessStorable(deps: StorableDeps, cmd: Command | ClearCommand, source: string): void {
  const why = deps.store.unwritable();
  if (why === undefined) return;
  const err = unstorable(deps, cmd, source, why);
  if (cmd.inumber !== undefined) deps.confirm(cmd.display, 0, cmd.inumber);
  throw err;
}

/**
 * Writes a committed change's journal line (`note`, given the store's undo). Throws
 * MLDS_STATE_UNWRITABLE (confirm=0) when the line, the first of its turn, could not be written:
 * `takeBack(false)` has run, nothing was shown. Otherwise returns undefined when the line is in
 * the kernel, or the promise of the turn's write, rejected with MLDS_STATE_UNWRITABLE after
 * `takeBack(true)` when that write fails.
 */
export function journal(
  deps: StorableDeps,
  cmd: Command | ClearCommand,
  source: string,
  note: (undo: () => void) => Promise<void> | undefined,
  takeBack: (drawn: boolean) => void,
): Promise<void> | undefined {
  let pending = false;
  let takenBack = false;
  const line = note(() => {
    takenBack = true;
    takeBack(pending);
  });
  if (takenBack) {
    line?.catch(() => undefined);
    const err = unstorable(deps, cmd, source, deps.store.unwritable() ?? 'the state journal cannot be written');
    if (cmd.inumber !== undefined) deps.confirm(cmd.display, 0, cmd.inumber);
    throw err;
  }
  if (!line) return undefined;
  pending = true;
  const stored = line.catch((err: Error) => {
    throw unstorable(deps, cmd, source, deps.store.unwritable() ?? err.message);
  });
  // Every caller of apply() waits for it; the confirmation and the level's reveal follow it too.
  stored.catch(() => undefined);
  return stored;
}
