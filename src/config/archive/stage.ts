import { lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARCHIVE_FETCH_LIMITS, fetchLimited, type FetchLimitedOptions, type FetchLimitedResult } from '../../net/fetch-limited.js';
import { extractZip } from './extract.js';
import type { ArchiveEntry, ArchiveLimits } from './inspect.js';
import { JOURNAL, stagingDirOf } from './swap.js';

/** An empty `<serviceDir>/.mlds-staging/`, replacing a leftover one. Refused while a swap is unfinished. */
export async function prepareStaging(serviceDir: string): Promise<string> {
  const staging = stagingDirOf(serviceDir);
  const journal = path.join(path.dirname(staging), JOURNAL);
  if (await lstat(journal).then(() => true, () => false)) throw new Error(`${journal} records an unfinished swap; run recoverInterruptedSwap first`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { mode: 0o755 });
  return staging;
}

/** Removes the staging folder (after a refused archive or configuration): nothing else was touched. */
export async function discardStaging(serviceDir: string): Promise<void> {
  await rm(stagingDirOf(serviceDir), { recursive: true, force: true });
}

/**
 * Inspects and extracts `zipFile` into a fresh staging folder of `serviceDir` and returns its
 * path and entries; the caller then validates `<staging>/config.json` (loadConfig) and either
 * calls swapConfiguration or discardStaging. On failure the staging folder is removed.
 */
export async function stageArchive(serviceDir: string, zipFile: string, limits?: ArchiveLimits): Promise<{ dir: string; entries: ArchiveEntry[] }> {
  const dir = await prepareStaging(serviceDir);
  try {
    return { dir, entries: await extractZip(zipFile, dir, limits) };
  } catch (err) {
    await discardStaging(serviceDir);
    throw err;
  }
}

export interface StageFromUrlOptions {
  /** Fetch limits and the progress callback; defaults are ARCHIVE_FETCH_LIMITS. */
  fetch?: Omit<FetchLimitedOptions, 'toFile'>;
  limits?: ArchiveLimits;
  /** Where the download is kept until it is extracted (default the system's temporary folder). */
  tmpDir?: string;
}

/**
 * GET /load_config?url= up to the validation: downloads the archive to a temporary file
 * (removed before returning), then stageArchive(). Fails with MLDS_BAD_URL, MLDS_FETCH_*,
 * or MLDS_BAD_ARCHIVE, leaving nothing behind.
 */
export async function stageFromUrl(serviceDir: string, url: string, opts: StageFromUrlOptions = {}): Promise<{ dir: string; entries: ArchiveEntry[]; download: Omit<FetchLimitedResult, 'file' | 'body'> }> {
  const tmp = await mkdtemp(path.join(opts.tmpDir ?? tmpdir(), 'mlds-download-'));
  try {
    const { file, ...download } = await fetchLimited(url, { ...ARCHIVE_FETCH_LIMITS, ...opts.fetch, toFile: path.join(tmp, 'config.zip') });
    return { ...(await stageArchive(serviceDir, file as string, opts.limits)), download };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
