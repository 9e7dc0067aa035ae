// A notify socket to send to: test/device/fixtures/notify-listener.py bound to a path or an
// abstract name, every datagram it receives with the sender's pid, and waiting for one.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./fixtures/notify-listener.py', import.meta.url));
/** Debian's python (the pyenv one on PATH may lack nothing, but the project pins this one). */
export const PYTHON = '/usr/bin/python3';

export interface Datagram {
  pid: number | null;
  message: string;
  at: number;
}

export interface Listener {
  address: string;
  got: Datagram[];
  /** Resolves with the first datagram (from index `from` on) that `pred` accepts. */
  next(pred: (d: Datagram) => boolean, ms?: number, from?: number): Promise<Datagram>;
  /** Ends the listener; resolves once it has exited. */
  close(): Promise<void>;
}

export async function listen(address: string): Promise<Listener> {
  const proc: ChildProcess = spawn(PYTHON, [SCRIPT, address], { stdio: ['ignore', 'pipe', 'inherit'] });
  const got: Datagram[] = [];
  const waiters = new Set<() => void>();
  let bound!: () => void;
  const ready = new Promise<void>((r) => {
    bound = r;
  });
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    if (line === 'READY') return bound();
    got.push({ ...(JSON.parse(line) as { pid: number | null; message: string }), at: Date.now() });
    for (const w of [...waiters]) w();
  });
  const gone = new Promise<void>((r) => proc.on('exit', () => r()));
  const exited = gone.then(() => {
    throw new Error('the notify listener exited before binding');
  });
  await Promise.race([ready, exited]);
  return {
    address,
    got,
    next(pred, ms = 30_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const d = got.slice(from).find(pred);
          if (!d) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(d);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no datagram as wanted within ${ms} ms; got:\n${got.map((d) => d.message).join('\n---\n')}`),
          );
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close() {
      proc.kill('SIGKILL');
      return gone;
    },
  };
}
