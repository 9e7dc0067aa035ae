// The programs the network endpoints run: `ip -j` (iproute2's JSON output of rtnetlink) to
// read the running system, and the command that makes systemd-networkd apply its files.
import { execFile } from 'node:child_process';
import { childEnv } from '../util/child-env.js';
import { MldsError } from '../errors.js';

const TIMEOUT_MS = 10_000;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program (no shell); resolves with its exit code and output, never rejects for a non-zero exit. */
export function run(argv: readonly string[], timeoutMs = TIMEOUT_MS): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      argv[0],
      argv.slice(1),
      { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8', env: childEnv() },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
        if (!e) return resolve({ code: 0, stdout, stderr });
        if (typeof e.code === 'string')
          return resolve({ code: 127, stdout, stderr: `${argv[0]}: ${e.code === 'ENOENT' ? 'not found' : e.message}` });
        resolve({
          code: typeof e.code === 'number' ? e.code : 1,
          stdout,
          stderr: e.killed ? `${argv[0]} took longer than ${timeoutMs} ms` : stderr,
        });
      },
    );
  });
}

/** `ip -j <args>` parsed; the unit's network cannot be read without it. */
export async function ipJson<T>(...args: string[]): Promise<T> {
  const r = await run(['ip', '-j', ...args]);
  if (r.code !== 0)
    throw new MldsError(
      'MLDS_NETWORK_UNAVAILABLE',
      `ip ${args.join(' ')} failed: ${r.stderr.trim() || `exit ${r.code}`}`,
    );
  return (r.stdout.trim() === '' ? [] : JSON.parse(r.stdout)) as T;
}

/**
 * The command that applies the networkd folder: `networkctl reload` (networkd reconfigures
 * every link whose .network file changed). MLDS_NETWORK_APPLY_COMMAND (words separated by
 * spaces, no shell) replaces it, deliberately not config.json: a configuration can be loaded
 * over HTTP, and a command in it would run whatever such a file named.
 */
export function applyCommand(env: NodeJS.ProcessEnv = process.env): string[] {
  const words = (env.MLDS_NETWORK_APPLY_COMMAND ?? '').trim().split(/\s+/).filter(Boolean);
  return words.length ? words : ['networkctl', 'reload'];
}
