import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';

/** fsync of a folder, which makes the names created, renamed or removed in it durable. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch (err) {
    // Some filesystems (tmpfs on old kernels, some FUSE) refuse fsync on a folder; nothing to make durable there.
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
  } finally {
    await fh.close();
  }
}

/**
 * fsync of every file and folder under `root`, deepest first. Refuses links and special
 * files: a staged configuration holds plain files and folders only.
 */
export async function syncTree(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    const p = path.join(root, name);
    const st = await lstat(p);
    if (st.isDirectory()) await syncTree(p);
    else if (st.isFile()) {
      const fh = await open(p, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
    } else throw new Error(`${p} is neither a file nor a folder`);
  }
  await syncDir(root);
}
