import { lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  ARCHIVE_FETCH_LIMITS,
  fetchLimited,
  type FetchLimitedOptions,
  type FetchLimitedResult,
} from '../../fetch/fetch-limited.js';
import { extractZip } from './extract.js';
import { badArchive, type ArchiveEntry, type ArchiveLimits } from './inspect.js';
import { DOWNLOADS, JOURNAL, keptNames, stagingDirOf } from './swap.js';
import { checkFileDigest } from '../../fetch/digest.js';

/** An empty `<serviceDir>/.mlds-staging/`, replacing a leftover one. Refused while a swap is unfinished. */
export async function prepareStaging(serviceDir: string): Promise<string> {
  const staging = stagingDirOf(serviceDir);
  const journal = path.join(path.dirname(staging), JOURNAL);
  if (
    await lstat(journal).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`${journal} records an unfinished swap; run recoverInterruptedSwap first`);
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
export async function stageArchive(
  serviceDir: string,
  zipFile: string,
  limits?: ArchiveLimits,
  keep: string[] = [],
): Promise<{ dir: string; entries: ArchiveEntry[] }> {
  const dir = await prepareStaging(serviceDir);
  try {
    const entries = await extractZip(zipFile, dir, limits);
    const kept = keptNames(serviceDir, keep);
    const clash = entries.find((e) => kept.has(e.name.split('/')[0]));
    if (clash)
      throw badArchive(
        `is in "${clash.name.split('/')[0]}/", the service's own state or log folder inside the service folder; ` +
          `an archive may not hold it`,
        clash.name,
      );
    return { dir, entries };
  } catch (err) {
    await discardStaging(serviceDir);
    throw err;
  }
}

export interface StageFromUrlOptions {
  /** Fetch limits and the progress callback; defaults are ARCHIVE_FETCH_LIMITS. */
  fetch?: Omit<FetchLimitedOptions, 'toFile'>;
  limits?: ArchiveLimits;
  /**
   * Where the download is kept until it is extracted (default `<serviceDir>/.mlds-download/`, which a start empties).
   */
  tmpDir?: string;
  /** The state and log folders when they are inside the service folder: an archive holding one is refused. */
  keep?: string[];
  /** The archive's SHA-256 (hex) the caller expects: a download with another digest is refused before it is opened. */
  sha256?: string;
}

/**
 * GET /load_config?url= up to the validation: downloads the archive to a temporary file
 * (removed before returning), then stageArchive(). Fails with MLDS_BAD_URL, MLDS_FETCH_*,
 * or MLDS_BAD_ARCHIVE, leaving nothing behind.
 */
export async function stageFromUrl(
  serviceDir: string,
  url: string,
  opts: StageFromUrlOptions = {},
): Promise<{ dir: string; entries: ArchiveEntry[]; download: Omit<FetchLimitedResult, 'file' | 'body'> }> {
  const downloads = opts.tmpDir ?? path.join(serviceDir, DOWNLOADS);
  await mkdir(downloads, { recursive: true, mode: 0o755 });
  const tmp = await mkdtemp(path.join(downloads, 'mlds-download-'));
  try {
    const { file, ...download } = await fetchLimited(url, {
      ...ARCHIVE_FETCH_LIMITS,
      ...opts.fetch,
      toFile: path.join(tmp, 'config.zip'),
    });
    if (opts.sha256 !== undefined) await checkFileDigest(file as string, opts.sha256);
    return { ...(await stageArchive(serviceDir, file as string, opts.limits, opts.keep)), download };
  } finally {
    await rm(opts.tmpDir === undefined ? downloads : tmp, { recursive: true, force: true });
  }
}
