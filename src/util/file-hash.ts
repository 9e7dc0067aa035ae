// Content hashes of files (SHA-256, base64), by which a reload tells whether a picture, video or
// font a display shows has changed (config/diff.ts). A hash stands while the file's identity and
// times are the same (device, inode, size, modification and change time: a write moves the
// change time, which nothing can set back), in this process and, in the unit's cache folder
// (util/cache-dir.ts), for the starts after it: a start read and hashed every file of every
// display again, the package's fonts among them (2.2 MB for the example configuration; a 50 MB
// video took a quarter of a second here).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unitCacheDir } from './cache-dir.js';

const KEPT_FILE = 'file-hashes.json';

interface Hashed {
  key: string;
  hash: string;
}

/** What an earlier start kept, read on the first use. */
let kept: Map<string, Hashed> | undefined;
/** The hashes this process has used: what the next start may need. */
const used = new Map<string, Hashed>();
let unsaved = false;

function keptHashes(): Map<string, Hashed> {
  if (kept) return kept;
  kept = new Map();
  const dir = unitCacheDir();
  if (!dir) return kept;
  try {
    const saved = JSON.parse(readFileSync(path.join(dir, KEPT_FILE), 'utf8')) as Record<string, Partial<Hashed>>;
    for (const [file, h] of Object.entries(saved)) {
      if (typeof h?.key === 'string' && typeof h.hash === 'string') kept.set(file, { key: h.key, hash: h.hash });
    }
  } catch {
    /* none yet, or damaged: the files are hashed again */
  }
  return kept;
}

/** The file's content hash; `missing:<code>` or `unreadable:<code>` when it cannot be read. */
export function fileHash(file: string): string {
  let key: string;
  try {
    const st = statSync(file, { bigint: true });
    key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch (err) {
    return `missing:${(err as NodeJS.ErrnoException).code}`;
  }
  const hit = used.get(file) ?? keptHashes().get(file);
  if (hit?.key === key) {
    used.set(file, hit);
    return hit.hash;
  }
  let hash: string;
  try {
    hash = createHash('sha256').update(readFileSync(file)).digest('base64');
  } catch (err) {
    return `unreadable:${(err as NodeJS.ErrnoException).code}`;
  }
  used.set(file, { key, hash });
  unsaved = true;
  return hash;
}

/** Keeps the hashes this process has used in the unit's cache folder, when one was made since the last call. */
export function keepFileHashes(): void {
  const dir = unitCacheDir();
  if (!unsaved || !dir) return;
  unsaved = false;
  try {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, KEPT_FILE);
    writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(Object.fromEntries(used)));
    renameSync(`${file}.${process.pid}.tmp`, file);
  } catch {
    /* a cache: the next start hashes again */
  }
}
