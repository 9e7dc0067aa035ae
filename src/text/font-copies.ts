// Where the renamed font copies live (fonts.ts).
//
// In the unit's cache folder when there is one (util/cache-dir.ts), under fonts/: each copy is
// named for its family and for the path, size and modification time of the file it was made
// from, so a start registers the copies an earlier start made instead of reading, renaming and
// writing every font again (1.6 MB of the package's fonts, 4.8 MB with Debian's Symbola: a fifth
// of the service's start here). The cache is on disk, where /tmp may be a tmpfs (it is on the
// device's image): copies there took memory the unit pays for. A new copy of a family replaces
// the older copies of that family, so they do not pile up when fonts change.
//
// Otherwise, or when the cache cannot be written: a folder of this process's own under the
// temporary directory, removed at exit; folders left by a process that was killed are removed
// by the next one.
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unitCacheDir } from '../util/cache-dir.js';
import { renameFontFamily } from './font-rename.js';

const PREFIX = 'mlds-fonts-';
let dir: string | undefined;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function folder(): string {
  if (dir) return dir;
  const root = tmpdir();
  for (const name of readdirSync(root)) {
    const pid = name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length)) : NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid))
      rmSync(path.join(root, name), { recursive: true, force: true });
  }
  dir = path.join(root, `${PREFIX}${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
  process.once('exit', () => rmSync(dir!, { recursive: true, force: true }));
  return dir;
}

/** Writes `bytes` as `<family>.ttf` in this process's temporary folder; undefined when it cannot be written. */
function writeTemporary(family: string, bytes: Buffer): string | undefined {
  try {
    const file = path.join(folder(), `${family}.ttf`);
    writeFileSync(file, bytes, { mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}

/**
 * Whether a kept copy is whole: its table directory fits the file and every table lies within
 * it (a copy cut short by a power cut is made again). Reads the directory only.
 */
function whole(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(12);
    if (readSync(fd, head, 0, 12, 0) !== 12) return false;
    const count = head.readUInt16BE(4);
    const records = Buffer.alloc(count * 16);
    if (count === 0 || readSync(fd, records, 0, records.length, 12) !== records.length) return false;
    for (let i = 0; i < count; i++)
      if (records.readUInt32BE(i * 16 + 8) + records.readUInt32BE(i * 16 + 12) > size) return false;
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The copy of `file` renamed to `family` kept in the cache folder `cache`, made now when there is none. */
function keptCopy(cache: string, file: string, family: string): string | undefined {
  const st = statSync(file);
  const source = createHash('sha256')
    .update(`${path.resolve(file)}\0${st.size}\0${st.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  const fonts = path.join(cache, 'fonts');
  const copy = path.join(fonts, `${family}-${source}.ttf`);
  if (whole(copy)) return copy;
  const renamed = renameFontFamily(readFileSync(file), family);
  if (!renamed) return undefined;
  try {
    mkdirSync(fonts, { recursive: true, mode: 0o700 });
    const tmp = `${copy}.${process.pid}.tmp`;
    writeFileSync(tmp, renamed, { mode: 0o600 });
    renameSync(tmp, copy);
    // Older copies of this family (of a font since changed or moved, or cut short): of no use again.
    for (const f of readdirSync(fonts))
      if (f.startsWith(`${family}-`) && f !== path.basename(copy)) rmSync(path.join(fonts, f), { force: true });
    return copy;
  } catch {
    return writeTemporary(family, renamed);
  }
}

/**
 * A copy of font `file` whose family is `family` (font-rename.ts), kept from an earlier start or
 * made now; undefined when the file is no single TrueType/OpenType font or no copy can be
 * written (the caller registers the original: a face that may be confused with a namesake beats
 * no font). Throws when the file cannot be read.
 */
export function renamedCopy(file: string, family: string): string | undefined {
  const cache = unitCacheDir();
  if (cache) return keptCopy(cache, file, family);
  const renamed = renameFontFamily(readFileSync(file), family);
  return renamed && writeTemporary(family, renamed);
}
