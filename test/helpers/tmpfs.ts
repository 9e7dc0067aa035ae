// A small tmpfs the test mounts itself, for full and read-only disks. Root is required.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { skipReason } from './skip.js';

/** Why tmpfs tests cannot run here, or undefined when they can. */
export function tmpfsUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return skipReason('needs root to mount a tmpfs', 'hardware');
  return undefined;
}

export interface Tmpfs {
  dir: string;
  /** Fills the disk to the last byte with a file named `filler`. */
  fill(): void;
  /** Removes the filler: space returns. */
  free(): void;
  readOnly(ro: boolean): void;
  /** Unmounts and removes the mount point; safe to call twice. */
  cleanup(): void;
}

export function mountTmpfs(size = '1m'): Tmpfs {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  let mounted = true;
  const filler = path.join(dir, 'filler');
  return {
    dir,
    // dd stops with "No space left on device": that is the point.
    fill: () => {
      spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' });
    },
    free: () => rmSync(filler, { force: true }),
    readOnly: (ro) => execFileSync('mount', ['-o', `remount,${ro ? 'ro' : 'rw'}`, dir]),
    cleanup: () => {
      if (mounted) spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
      mounted = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A folder on the tmpfs (made before it is filled or made read-only). */
export function sub(fs: Tmpfs, name: string): string {
  const d = path.join(fs.dir, name);
  mkdirSync(d, { recursive: true });
  return d;
}
