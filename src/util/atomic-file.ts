import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename, mkdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

/** Write-temp, fsync, rename: a power cut leaves either the old file or the new one, never half of one. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fh = await open(tmp, 'w', 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (err) {
    // A full or read-only disk must not collect half-written temporary files.
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(path.dirname(file));
}

/**
 * Write-temp and rename without fsync: when this returns the new content is in the kernel,
 * so a killed process loses nothing, and readers see the old file or the new one. Survival
 * of a power cut needs syncFile() afterwards. The temporary file is removed on failure.
 */
export function writeFileAtomicSync(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o644 });
    renameSync(tmp, file);
  } catch (err) {
    try { unlinkSync(tmp); } catch { /* never created */ }
    throw err;
  }
}

/** fsync of a file and of its folder (which holds the rename that put it there). */
export async function syncFile(file: string): Promise<void> {
  const fh = await open(file, 'r');
  try { await fh.sync(); } finally { await fh.close(); }
  await syncDir(path.dirname(file));
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try { await fh.sync(); } catch { /* some filesystems refuse fsync on a directory */ } finally { await fh.close(); }
}

export async function readJsonFile<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
