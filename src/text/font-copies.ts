// Where the renamed font copies live (fonts.ts): a folder of this process's own under the
// temporary directory, removed at exit; folders left by a process that was killed are removed
// by the next one, so copies never pile up.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(path.join(root, name), { recursive: true, force: true });
  }
  dir = path.join(root, `${PREFIX}${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
  process.once('exit', () => rmSync(dir!, { recursive: true, force: true }));
  return dir;
}

/**
 * Writes `bytes` as `<family>.ttf` in this process's folder; returns its path, or undefined
 * when the temporary directory cannot be written (the caller registers the original file:
 * a face that may be confused with a namesake beats no font).
 */
export function writeCopy(family: string, bytes: Buffer): string | undefined {
  try {
    const file = path.join(folder(), `${family}.ttf`);
    writeFileSync(file, bytes, { mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}
