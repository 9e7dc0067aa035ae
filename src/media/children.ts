// Every ffmpeg the media areas start goes through here: it never keeps the process alive,
// is counted for /status, and is killed when the process exits, however it exits.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export type MediaChild = ChildProcessByStdio<null, Readable | null, Readable>;

const live = new Set<MediaChild>();
let exitHook = false;

/**
 * How every ffmpeg the service starts begins: errors only on stderr (kept for the fault),
 * never reading stdin (a child would steal the terminal's input), and one thread, since a
 * sign's media is small and the frame loop needs the other core.
 */
export const FFMPEG_QUIET: readonly string[] = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-threads', '1'];

/** Lines of a child's stderr kept for a fault message. */
const STDERR_KEEP = 2048;

export interface Spawned {
  child: MediaChild;
  /** The end of what the child wrote to stderr (for the fault when it fails). */
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) once the child is gone. */
  exited: Promise<number | null>;
}

/**
 * Starts `cmd`; `stdout` true pipes its output (a decoder), false discards it (a player).
 * The child is unreferenced: a panel's video never holds up the service's exit.
 */
export function spawnMedia(cmd: string, args: string[], stdout: boolean): Spawned {
  if (!exitHook) {
    exitHook = true;
    // Synchronous, so it runs on every exit path (process.exit, an uncaught error, the end of a test file).
    process.on('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
  const child = spawn(cmd, args, { stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'] }) as MediaChild;
  live.add(child);
  let tail = '';
  child.stderr.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-STDERR_KEEP);
  });
  const exited = new Promise<number | null>((resolve) => {
    const done = (code: number | null) => {
      live.delete(child);
      resolve(code);
    };
    child.once('error', (err) => {
      tail += `${err.message}\n`;
      done(-1);
    });
    child.once('exit', (code) => done(code));
  });
  child.unref();
  (child.stdout as unknown as { unref?(): void } | null)?.unref?.();
  (child.stderr as unknown as { unref?(): void }).unref?.();
  return { child, stderr: () => tail, exited };
}

/** Ends a child: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
export function endChild(s: Spawned, graceMs = 1000): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return s.exited.then(() => undefined);
  s.child.kill('SIGTERM');
  const t = setTimeout(() => s.child.kill('SIGKILL'), graceMs);
  t.unref();
  return s.exited.then(() => clearTimeout(t));
}

/** ffmpeg children running now (for /status and the tests' leak checks). */
export function liveChildren(): number {
  return live.size;
}

/** The last meaningful line ffmpeg wrote to stderr, for a fault. */
export function lastLine(stderr: string): string {
  const lines = stderr
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.pop() ?? '';
}
