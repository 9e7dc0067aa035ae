import { closeSync, constants, fstatSync, openSync, renameSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

// Files the service reads or appends to at start (state, journal, log) are opened with
// O_NONBLOCK and checked with fstat: opening a FIFO without a writer (to read) or without a
// reader (to append) would otherwise wait for one, and the port would never open. (The
// configuration's own files: readRegularFile in config/files.ts, synchronous.)
const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_NONBLOCK } = constants;

function notRegular(st: Stats): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTREG: not a regular file but ${fileKind(st) ?? 'a special file'}`), {
    code: 'ENOTREG',
  });
}

/** The text of a regular file; ENOENT when there is none, ENOTREG (nothing read) when it is a FIFO, device... */
export async function readRegularFileAsync(file: string): Promise<string> {
  const fh = await open(file, O_RDONLY | O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw notRegular(st);
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}

/** A descriptor appending to `file` (created when missing); throws ENOTREG, or ENXIO for a FIFO nobody reads. */
export function openForAppend(file: string, mode: number): number {
  const fd = openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK, mode);
  const st = fstatSync(fd);
  if (st.isFile()) return fd;
  closeSync(fd);
  throw notRegular(st);
}

/**
 * Moves `file` to `<file>.bad-<time>` when it exists and is not a regular file; returns what
 * was done, for the log and /status (undefined when there was nothing to do).
 */
export function moveAsideUnlessRegular(file: string): string | undefined {
  const st = statSync(file, { throwIfNoEntry: false });
  const kind = st && fileKind(st);
  if (!kind) return undefined;
  const aside = `${file}.bad-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(file, aside);
    return `${file} was ${kind}, not a regular file; it was moved to ${aside} and a new file started`;
  } catch (err) {
    const why = (err as Error).message.split(', ')[0];
    return `${file} is ${kind}, not a regular file, and could not be moved aside (${why})`;
  }
}

/** What a path is when it is not a regular file, in words for a fault. */
export function fileKind(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'a special file';
}
