import { copyFileSync, renameSync } from 'node:fs';
import path from 'node:path';

/**
 * Keeps a state file the service could not use for inspection as <file>.bad-<time>: moved
 * away when nothing of it was used (a FIFO or device is moved unread, so it is never opened
 * again), copied when the good part was loaded. Returns where it went and, in words for the
 * log and /status, what became of it.
 */
export function keepAside(file: string, move: boolean): { aside: string; where: string } {
  const aside = `${file}.bad-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    if (move) renameSync(file, aside);
    else copyFileSync(file, aside);
    return { aside, where: `kept as ${path.basename(aside)}` };
  } catch (e) {
    return { aside, where: `could not be kept aside (${(e as Error).message.split(', ')[0]})` };
  }
}
