// Reading the state folder at a start (src/control/store.ts writes it): the snapshot
// state.json, then the journals from its generation on. What cannot be used is set aside as
// <file>.bad-<time> and reported; the service starts with the rest.
import { mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { ServiceProblem } from '../problem.js';
import { readRegularFileAsync } from '../util/regular-file.js';
import { keepAside } from '../util/set-aside.js';
import { applyJournal, checkSavedState, emptyState, listed, type SavedState } from './saved-state.js';

export interface StoreLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The state found, the generation past every file read, and what was wrong with them. */
export async function readStateFolder(
  dir: string,
  log: StoreLog | undefined,
): Promise<{ data: SavedState; gen: number; problems: ServiceProblem[] }> {
  const problems: ServiceProblem[] = [];
  const aside = (file: string, what: string, err: Error | undefined, move: boolean) =>
    problems.push(setAside(file, what, err, move, log));
  let data = emptyState();
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    /* the first snapshot reports it */
  }
  let gen = 0;
  const file = path.join(dir, 'state.json');
  const text = await read(file, aside);
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      aside(file, text.trim() === '' ? 'is empty' : 'is not valid JSON', err as Error, true);
    }
    if (parsed !== undefined) {
      const checked = checkSavedState(parsed);
      if (!checked) aside(file, 'does not hold a JSON object', undefined, true);
      else {
        data = checked.state;
        gen = checked.state.gen ?? 0;
        delete data.gen;
        const n = checked.dropped.length;
        if (n)
          aside(
            file,
            `has ${n} entr${n === 1 ? 'y' : 'ies'} of the wrong form (${listed(checked.dropped)}), dropped`,
            undefined,
            false,
          );
      }
    }
  }
  const gens = journals(dir);
  for (const j of gens.filter((n) => n >= gen)) {
    const jf = journalFile(dir, j);
    const lines = await read(jf, aside);
    const bad = lines === undefined ? 0 : applyJournal(data, lines);
    if (bad) aside(jf, `has ${bad} unreadable line(s), dropped`, undefined, false);
  }
  return { data, gen: Math.max(gen, ...gens), problems };
}

/**
 * The file's text; undefined when there is none, or when it cannot be read (then it is set
 * aside). A FIFO or device is set aside unread: reading it could wait forever.
 */
async function read(
  file: string,
  aside: (file: string, what: string, err: Error, move: boolean) => void,
): Promise<string | undefined> {
  try {
    return await readRegularFileAsync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') aside(file, 'cannot be read', err as Error, true);
    return undefined;
  }
}

/** Sets the file aside (util/set-aside.ts) and says so, in the log and as a problem. */
function setAside(
  file: string,
  what: string,
  err: Error | undefined,
  move: boolean,
  log: StoreLog | undefined,
): ServiceProblem {
  const { aside, where } = keepAside(file, move);
  const why = err ? ` (${err.message.split('\n')[0]})` : '';
  const message =
    `${file} ${what}${why}; it was ${where}; ` + `${move ? 'the service started without it' : 'the rest was loaded'}`;
  log?.warn({ file, aside }, message);
  return { source: 'state', message, since: new Date().toISOString() };
}

// The names of the state store's files in its folder (src/control/store.ts): the snapshot
// `state.json`, journals `state.journal.<generation>`, and temporary snapshots a kill left.
const STALE_TEMP = /^state\.json\.[\d.]+\.tmp$/;
const JOURNAL = /^state\.journal\.(\d+)$/;

export function journalFile(dir: string, gen: number): string {
  return path.join(dir, `state.journal.${gen}`);
}

/** Generations of the journals in the folder, oldest first. */
export function journals(dir: string): number[] {
  try {
    return readdirSync(dir)
      .map((f) => JOURNAL.exec(f))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  } catch {
    return [];
  }
}

/** Temporary files of a process killed in the middle of a snapshot. */
export function removeStaleTemps(dir: string): void {
  try {
    for (const name of readdirSync(dir)) if (STALE_TEMP.test(name)) unlinkSync(path.join(dir, name));
  } catch {
    /* no folder, or read-only: the snapshot reports it */
  }
}
