import { open, rename, mkdir, unlink } from 'node:fs/promises';
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

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch {
    /* some filesystems refuse fsync on a directory */
  } finally {
    await fh.close();
  }
}
