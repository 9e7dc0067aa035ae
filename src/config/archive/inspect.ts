import yauzl from 'yauzl';
import { MldsError } from '../../errors.js';
import { ConfigError } from '../faults.js';
import { configSizeError } from '../files.js';

export interface ArchiveLimits {
  maxEntries: number;
  /** Sum of the declared uncompressed sizes; extraction also counts the real bytes. */
  maxTotalBytes: number;
  /** Largest uncompressed:compressed ratio accepted for an entry larger than `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

/**
 * Deflate cannot exceed about 1032:1; a configuration's JSON compresses 5-20:1, fonts 2:1,
 * pictures barely. 100:1 over 1 MiB is refused as a zip bomb, while a small file (a blank
 * bitmap, a JSON of spaces) may compress as well as it likes: 1 MiB is harmless.
 */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 1000,
  maxTotalBytes: 200 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

export interface ArchiveEntry {
  /** Relative, `/`-separated; a directory's name ends with `/`. */
  name: string;
  isDirectory: boolean;
  size: number;
  compressedSize: number;
  crc32: number;
}

export type ZipOpenOptions = yauzl.Options;
/** decodeStrings off: names are decoded and checked here, so the error can name the entry. */
export const ZIP_OPTIONS: ZipOpenOptions = {
  lazyEntries: true,
  validateEntrySizes: true,
  decodeStrings: false,
  autoClose: false,
};

export function badArchive(message: string, entry?: string): MldsError {
  return new MldsError(
    'MLDS_BAD_ARCHIVE',
    entry === undefined ? message : `entry "${printable(entry)}": ${message}`,
    'url',
    entry === undefined ? undefined : { entry },
  );
}

export async function openZip(file: string, limits: ArchiveLimits): Promise<yauzl.ZipFile> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, ZIP_OPTIONS);
  } catch (err) {
    throw badArchive(`is not a zip archive (${(err as Error).message})`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw badArchive(`holds ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`);
  }
  return zip;
}

/**
 * Reads the central directory of `file` and refuses it, before anything is extracted, for
 * anything a configuration archive must not hold. Returns the entries in archive order.
 */
export async function inspectZip(
  file: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<ArchiveEntry[]> {
  const zip = await openZip(file, limits);
  try {
    const entries: ArchiveEntry[] = [];
    const check = new NameCheck();
    let total = 0;
    for await (const raw of entriesOf(zip)) {
      const e = checkEntry(raw);
      check.add(e);
      total += e.size;
      if (total > limits.maxTotalBytes)
        throw badArchive(`brings the uncompressed total over ${limits.maxTotalBytes} bytes`, e.name);
      if (e.size > limits.ratioFloorBytes && e.size > limits.maxRatio * e.compressedSize) {
        throw badArchive(
          `expands ${e.compressedSize} bytes to ${e.size} (over ${limits.maxRatio}:1): refused as a zip bomb`,
          e.name,
        );
      }
      entries.push(e);
    }
    if (!check.files.has('config.json')) throw badArchive(noConfigAtRoot(check.files));
    // Its size is in the directory: a config.json too large to load is refused before it is inflated.
    const tooLarge = configSizeError(entries.find((e) => e.name === 'config.json')!.size);
    if (tooLarge) throw new ConfigError([{ path: '', message: `config.json ${tooLarge}` }]);
    return entries;
  } finally {
    zip.close();
  }
}

/**
 * The refusal of an archive without a root config.json names the shallowest one it holds: a folder zipped instead of
 * its contents.
 */
function noConfigAtRoot(files: Set<string>): string {
  let found: string | undefined;
  for (const f of files) {
    if (f.endsWith('/config.json') && (found === undefined || f.split('/').length < found.split('/').length)) found = f;
  }
  if (found === undefined) return 'has no config.json at its root';
  const folder = printable(found.slice(0, -'/config.json'.length));
  return (
    `has no config.json at its root, but one at "${printable(found)}": ` +
    `zip the contents of "${folder}/", not the folder itself`
  );
}

/** The entries of an open zip; yauzl's own errors (a malformed directory) become MLDS_BAD_ARCHIVE. */
export async function* entriesOf(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  const it = zip.eachEntry();
  while (true) {
    let r: IteratorResult<yauzl.Entry>;
    try {
      r = await it.next();
    } catch (err) {
      throw badArchive(`is malformed (${(err as Error).message})`);
    }
    if (r.done) return;
    yield r.value;
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** One entry's name, type and encoding, checked; the name is decoded here (UTF-8 flag, Info-ZIP path field). */
export function checkEntry(entry: yauzl.Entry): ArchiveEntry {
  const rawName = entry.fileName as unknown as Buffer;
  const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, rawName, entry.extraFields, true);
  const unsafe = unsafeName(name);
  if (unsafe) throw badArchive(unsafe, name);
  const isDirectory = name.endsWith('/');
  // The upper 16 bits hold a Unix st_mode when the archiver wrote one (zip -y, Info-ZIP, python).
  const mode = entry.externalFileAttributes >>> 16;
  const type = mode & S_IFMT;
  if (type === S_IFLNK) throw badArchive('is a symbolic link; links are not accepted', name);
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
    throw badArchive('is a device, FIFO or socket; only files and folders are accepted', name);
  if (type === S_IFDIR && !isDirectory)
    throw badArchive('is marked as a folder but its name does not end with "/"', name);
  if (entry.isEncrypted()) throw badArchive('is encrypted', name);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw badArchive(
      `uses compression method ${entry.compressionMethod}; only stored and deflated entries are accepted`,
      name,
    );
  if (isDirectory && entry.uncompressedSize !== 0) throw badArchive('is a folder with content', name);
  return { name, isDirectory, size: entry.uncompressedSize, compressedSize: entry.compressedSize, crc32: entry.crc32 };
}

/** Why an entry name could write outside the staging folder or onto the service's own files. */
export function unsafeName(name: string): string | undefined {
  if (name === '' || name === '/') return 'has an empty name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'has a control character in its name';
  if (name.includes('\\')) return 'has a backslash in its name; paths in an archive use "/"';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'is an absolute path';
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..')) return 'contains ".." (it would leave the configuration folder)';
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or "." path segment';
  if (segments.some((s) => Buffer.byteLength(s) > 255)) return 'has a path segment longer than 255 bytes';
  if (segments[0].startsWith('.'))
    return 'starts with "."; top-level names starting with "." are reserved for the service';
  return undefined;
}

/** Duplicate names, and a name used both as a file and as a folder. */
class NameCheck {
  readonly files = new Set<string>();
  private readonly dirs = new Set<string>();
  private readonly explicitDirs = new Set<string>();

  add(e: ArchiveEntry): void {
    const path = e.isDirectory ? e.name.slice(0, -1) : e.name;
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      if (this.files.has(parent))
        throw badArchive(`lies inside "${parent}", which the archive also holds as a file`, e.name);
      this.dirs.add(parent);
    }
    if (e.isDirectory) {
      if (this.files.has(path)) throw badArchive('is also in the archive as a file', e.name);
      if (this.explicitDirs.has(path)) throw badArchive('appears twice in the archive', e.name);
      this.explicitDirs.add(path);
      this.dirs.add(path);
    } else {
      if (this.files.has(path)) throw badArchive('appears twice in the archive', e.name);
      if (this.dirs.has(path)) throw badArchive('is also in the archive as a folder', e.name);
      this.files.add(path);
    }
  }
}

function printable(name: string): string {
  // eslint-disable-next-line no-control-regex
  const shown = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  // A long name keeps its end too: the file name is what a person looks for.
  return shown.length <= 200 ? shown : `${shown.slice(0, 120)}…${shown.slice(-79)}`;
}
