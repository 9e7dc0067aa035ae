import { open, rename, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Write-temp, fsync, rename: a power cut leaves either the old file or the new one, never half of one. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fh = await open(tmp, 'w', 0o644);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
  // The rename itself lives in the directory; sync it too so it survives a power cut.
  const dir = await open(path.dirname(file), 'r');
  try { await dir.sync(); } catch { /* some filesystems refuse fsync on a directory */ } finally { await dir.close(); }
}

export async function readJsonFile<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
