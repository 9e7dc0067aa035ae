import { lstat, mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { syncDir, syncTree } from './fsync.js';

// The crash-safe swap of a service directory (docs/decisions.md, "Configuration swaps").
// Everything happens inside the service directory: under systemd's ProtectSystem=strict its
// parent (/etc) is read-only, and rename() is atomic only within one filesystem anyway.

/** The new tree is staged here before a swap; discarded at start when no journal exists. */
export const STAGING = '.mlds-staging';
/** One previous configuration, in `<seq>-<time>/`. */
export const BACKUPS = '.mlds-backup';
/**
 * /load_config downloads land here (on the service folder's filesystem), so a start after a kill mid-download removes
 * them.
 */
export const DOWNLOADS = '.mlds-download';
/** Its existence is the commit point: from then on the swap is rolled forward, never back. */
export const JOURNAL = '.mlds-swap.json';

export interface SwapJournal {
  version: 1;
  /** Folder name under .mlds-backup/ receiving the old top-level entries. */
  backup: string;
  /** Top-level entries of the old configuration, moved to the backup. */
  old: string[];
  /** Top-level entries of the staged configuration, moved in. */
  new: string[];
}

export interface SwapOptions {
  /**
   * Absolute paths that stay where they are whatever the archive holds (the state and log
   * folders when they live inside the service directory): the top-level entry holding one
   * is neither moved out nor replaceable by the archive.
   */
  keep?: string[];
  /** Test hook: awaited after every step, so a test can kill the process between any two. */
  pauseBetweenSteps?: (step: string) => void | Promise<void>;
  now?: Date;
}

export interface SwapResult {
  backup: string;
  old: string[];
  new: string[];
}

export function stagingDirOf(serviceDir: string): string {
  return path.join(path.resolve(serviceDir), STAGING);
}

/**
 * Replaces the configuration in `serviceDir` (its top-level entries, except names starting
 * with "." and `keep`) with the tree staged in `stagingDir` (`<serviceDir>/.mlds-staging`).
 * A kill at any moment leaves, after recoverInterruptedSwap(), either the old tree or the new
 * one, never a mix. The old tree becomes the backup; older backups are deleted.
 */
export async function swapConfiguration(
  serviceDir: string,
  stagingDir: string,
  opts: SwapOptions = {},
): Promise<SwapResult> {
  const dir = path.resolve(serviceDir);
  const step = async (s: string) => {
    await opts.pauseBetweenSteps?.(s);
  };
  if (path.resolve(stagingDir) !== path.join(dir, STAGING))
    throw new Error(`swapConfiguration: the staging folder must be ${path.join(dir, STAGING)}`);
  if (await exists(path.join(dir, JOURNAL)))
    throw new Error(`swapConfiguration: ${dir} holds an interrupted swap; run recoverInterruptedSwap first`);
  await step('start');
  const keep = keptNames(dir, opts.keep ?? []);
  const staging = path.join(dir, STAGING);
  const incoming = (await readdir(staging)).sort();
  for (const name of incoming) {
    if (name.startsWith('.') || keep.has(name))
      throw new Error(`swapConfiguration: the staged configuration may not hold "${name}"`);
  }
  const old = (await readdir(dir)).filter((n) => !n.startsWith('.') && !keep.has(n)).sort();
  await syncTree(staging);
  await step('staged');
  const journal: SwapJournal = {
    version: 1,
    backup: await nextBackupName(dir, opts.now ?? new Date()),
    old,
    new: incoming,
  };
  await writeJournal(dir, journal);
  await step('committed');
  await rollForward(dir, journal, step);
  return { backup: path.join(dir, BACKUPS, journal.backup), old, new: incoming };
}

export type Recovery = 'none' | 'rolled-forward' | 'discarded-staging';

/**
 * Run at start, before config.json is read: finishes a committed swap (the journal exists)
 * or discards an uncommitted staging folder, and deletes backups older than the newest and
 * any download a kill interrupted.
 */
export async function recoverInterruptedSwap(
  serviceDir: string,
  opts: Pick<SwapOptions, 'pauseBetweenSteps'> = {},
): Promise<Recovery> {
  const dir = path.resolve(serviceDir);
  const step = async (s: string) => {
    await opts.pauseBetweenSteps?.(s);
  };
  await rm(path.join(dir, JOURNAL + '.tmp'), { force: true });
  await rm(path.join(dir, DOWNLOADS), { recursive: true, force: true });
  const journal = await readJournal(dir);
  if (journal) {
    await rollForward(dir, journal, step);
    return 'rolled-forward';
  }
  const staging = path.join(dir, STAGING);
  const had = await exists(staging);
  if (had) {
    await rm(staging, { recursive: true, force: true });
    await syncDir(dir);
  }
  await prune(dir);
  return had ? 'discarded-staging' : 'none';
}

/** Idempotent: each move checks where its entry is, so a rerun after a kill picks up where it stopped. */
async function rollForward(dir: string, j: SwapJournal, step: (s: string) => Promise<void>): Promise<void> {
  const backupRoot = path.join(dir, BACKUPS);
  const backup = path.join(backupRoot, j.backup);
  const staging = path.join(dir, STAGING);
  await mkdir(backup, { recursive: true });
  await syncDir(backupRoot);
  await syncDir(dir);
  await step('backup-created');
  for (const name of j.old) {
    if ((await exists(path.join(backup, name))) || !(await exists(path.join(dir, name)))) continue;
    await rename(path.join(dir, name), path.join(backup, name));
    await step(`moved-old:${name}`);
  }
  // Every old entry is out, durably, before the first new one comes in.
  await syncDir(dir);
  await syncDir(backup);
  await step('old-synced');
  for (const name of j.new) {
    const from = path.join(staging, name);
    if (!(await exists(from))) continue;
    const to = path.join(dir, name);
    // Only something created behind the swap's back can be here; it goes with the backup.
    if (await exists(to)) {
      if (await exists(path.join(backup, name))) await rm(to, { recursive: true, force: true });
      else await rename(to, path.join(backup, name));
    }
    await rename(from, to);
    await step(`moved-new:${name}`);
  }
  await syncDir(dir);
  await rm(staging, { recursive: true, force: true });
  await step('new-synced');
  await unlink(path.join(dir, JOURNAL));
  await syncDir(dir);
  await step('journal-removed');
  await prune(dir, j.backup);
  await step('pruned');
}

async function writeJournal(dir: string, j: SwapJournal): Promise<void> {
  const tmp = path.join(dir, JOURNAL + '.tmp');
  const fh = await open(tmp, 'w', 0o644);
  try {
    await fh.writeFile(JSON.stringify(j));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path.join(dir, JOURNAL));
  await syncDir(dir);
}

async function readJournal(dir: string): Promise<SwapJournal | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, JOURNAL), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  // Written by rename after fsync, so a damaged journal means a damaged disk: stop and say so.
  const damaged = () =>
    new Error(
      `${path.join(dir, JOURNAL)} is damaged; the configuration swap it records cannot be finished (see ` +
        `docs/decisions.md, "Configuration swaps")`,
    );
  let j: SwapJournal;
  try {
    j = JSON.parse(text) as SwapJournal;
  } catch {
    throw damaged();
  }
  const names = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === 'string' && plainName(n));
  if (j?.version !== 1 || typeof j.backup !== 'string' || !BACKUP_NAME.test(j.backup) || !names(j.old) || !names(j.new))
    throw damaged();
  return j;
}

const BACKUP_NAME = /^(\d{6,})-[0-9TZ-]+$/;

/** A sequence number first: the clock of a unit without a battery may run backwards across a reboot. */
async function nextBackupName(dir: string, now: Date): Promise<string> {
  const seqs = (await readdir(path.join(dir, BACKUPS)).catch(() => [] as string[]))
    .map((n) => BACKUP_NAME.exec(n))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]));
  const seq = String(Math.max(0, ...seqs) + 1).padStart(6, '0');
  return `${seq}-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/** Deletes every backup but `keep` (default: the newest). */
async function prune(dir: string, keep?: string): Promise<void> {
  const root = path.join(dir, BACKUPS);
  const names = (await readdir(root).catch(() => [] as string[])).filter((n) => BACKUP_NAME.test(n));
  const newest = keep ?? names.sort((a, b) => Number(BACKUP_NAME.exec(b)?.[1]) - Number(BACKUP_NAME.exec(a)?.[1]))[0];
  for (const n of names) if (n !== newest) await rm(path.join(root, n), { recursive: true, force: true });
}

/**
 * The files of the backup `swap` made that the new configuration does not have again: what a
 * load removed from the service folder (in the backup until the next load). At most `max`
 * are listed; `more` counts the rest.
 */
export async function removedFiles(
  dir: string,
  swap: SwapResult,
  max = 100,
): Promise<{ files: string[]; more: number }> {
  const files: string[] = [];
  let more = 0;
  const visit = async (rel: string): Promise<void> => {
    const st = await lstat(path.join(swap.backup, rel)).catch(() => undefined);
    if (st?.isDirectory()) {
      for (const name of (await readdir(path.join(swap.backup, rel))).sort()) await visit(`${rel}/${name}`);
    } else if (st && !(await exists(path.join(dir, rel)))) {
      if (files.length < max) files.push(rel);
      else more++;
    }
  };
  for (const name of swap.old) await visit(name);
  return { files, more };
}

/** The top-level names of `dir` that hold one of the `keep` paths. */
export function keptNames(dir: string, keep: string[]): Set<string> {
  const out = new Set<string>();
  for (const p of keep) {
    const rel = path.relative(dir, path.resolve(p));
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) out.add(rel.split(path.sep)[0]);
  }
  return out;
}

function plainName(n: string): boolean {
  return n !== '' && !n.includes('/') && !n.startsWith('.');
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
