import { constants } from 'node:fs';
import { mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type yauzl from 'yauzl';
import { MldsError } from '../../errors.js';
import {
  badArchive,
  checkEntry,
  DEFAULT_ARCHIVE_LIMITS,
  entriesOf,
  inspectZip,
  openZip,
  type ArchiveEntry,
  type ArchiveLimits,
} from './inspect.js';

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Inspects `file` (nothing is written when that fails), then extracts it into `dir`, which
 * must exist and be empty. Real decompressed bytes are counted against each entry's declared
 * size and the total limit, and CRC-32s are checked; files are created with O_EXCL, so
 * nothing already there is overwritten or followed. On any failure `dir` is emptied again.
 */
export async function extractZip(
  file: string,
  dir: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<ArchiveEntry[]> {
  const entries = await inspectZip(file, limits);
  const root = path.resolve(dir);
  if ((await readdir(root)).length > 0) throw new Error(`extractZip: ${root} is not empty`);
  const zip = await openZip(file, limits);
  try {
    let i = 0;
    let total = 0;
    for await (const raw of entriesOf(zip)) {
      const e = checkEntry(raw);
      const expected = entries[i++];
      // The file is read twice; a change between the reads must not slip an unchecked entry in.
      if (!expected || expected.name !== e.name || expected.size !== e.size)
        throw badArchive('changed while it was being read', e.name);
      const target = path.join(root, ...e.name.split('/').filter(Boolean));
      if (!target.startsWith(root + path.sep)) throw badArchive('would be written outside the staging folder', e.name);
      try {
        if (e.isDirectory) {
          await mkdir(target, { recursive: true });
          continue;
        }
        await mkdir(path.dirname(target), { recursive: true });
        total += await writeEntry(zip, raw, e, target, limits.maxTotalBytes - total);
      } catch (err) {
        // Only the filesystem can say how long a path may be (PATH_MAX, and the service folder's own path counts).
        if ((err as NodeJS.ErrnoException).code === 'ENAMETOOLONG')
          throw badArchive('has a path longer than the filesystem allows', e.name);
        throw err;
      }
    }
    if (i !== entries.length) throw badArchive('changed while it was being read');
    return entries;
  } catch (err) {
    await emptyDir(root);
    throw err;
  } finally {
    zip.close();
  }
}

/** Writes one entry's data and returns the bytes written; `budget` is what the total limit still allows. */
async function writeEntry(
  zip: yauzl.ZipFile,
  raw: yauzl.Entry,
  e: ArchiveEntry,
  target: string,
  budget: number,
): Promise<number> {
  const fh = await open(target, CREATE_NEW, 0o644);
  let written = 0;
  let crc = 0;
  try {
    let stream;
    try {
      stream = await zip.openReadStreamPromise(raw);
    } catch (err) {
      throw badArchive(`cannot be read (${(err as Error).message})`, e.name);
    }
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        written += chunk.length;
        if (written > e.size) throw badArchive(`holds more data than its declared ${e.size} bytes`, e.name);
        if (written > budget) throw badArchive('brings the real uncompressed total over the limit', e.name);
        crc = crc32(chunk, crc);
        await fh.write(chunk);
      }
    } catch (err) {
      stream.destroy();
      if (err instanceof MldsError || (err as NodeJS.ErrnoException).syscall) throw err;
      // yauzl counts too (validateEntrySizes) and may notice first.
      if (/too many bytes/.test((err as Error).message))
        throw badArchive(`holds more data than its declared ${e.size} bytes`, e.name);
      throw badArchive(`is corrupt (${(err as Error).message})`, e.name);
    }
    if (written !== e.size) throw badArchive(`holds ${written} bytes, not the declared ${e.size}`, e.name);
    if (crc !== e.crc32) throw badArchive('fails its CRC-32 check (the archive is damaged)', e.name);
    await fh.sync();
    return written;
  } finally {
    await fh.close();
  }
}

async function emptyDir(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    await rm(path.join(dir, name), { recursive: true, force: true });
  }
}
