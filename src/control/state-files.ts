// The names of the state store's files in its folder (src/control/store.ts): the snapshot
// `state.json`, journals `state.journal.<generation>`, and temporary snapshots a kill left.
import { readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const STALE_TEMP = /^state\.json\.[\d.]+\.tmp$/;
const JOURNAL = /^state\.journal\.(\d+)$/;

export function journalFile(dir: string, gen: number): string {
  return path.join(dir, `state.journal.${gen}`);
}

/** Generations of the journals in the folder, oldest first. */
export function journals(dir: string): number[] {
  try {
    return readdirSync(dir).map((f) => JOURNAL.exec(f)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => a - b);
  } catch {
    return [];
  }
}

/** Temporary files of a process killed in the middle of a snapshot. */
export function removeStaleTemps(dir: string): void {
  try {
    for (const name of readdirSync(dir)) if (STALE_TEMP.test(name)) unlinkSync(path.join(dir, name));
  } catch { /* no folder, or read-only: the snapshot reports it */ }
}
