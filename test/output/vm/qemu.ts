// One QEMU guest for the framebuffer test: TCG (KVM is not usable on these machines), -vga std
// so the bochs DRM driver gives the guest /dev/fb0, the host's / shared read-only over 9p plus
// one writable folder, the serial console on a pipe and the monitor on a unix socket.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

export const QEMU = 'qemu-system-x86_64';

export function qemuUnavailable(): string | undefined {
  if (spawnSync(QEMU, ['--version']).error)
    return `${QEMU} is not installed (Debian package qemu-system-x86; make test-deps installs it)`;
  if (spawnSync('/bin/busybox', ['true']).error) return '/bin/busybox is missing (Debian package busybox-static)';
  return undefined;
}

export interface Guest {
  /** Console lines so far. */
  lines: string[];
  /** Resolves with the first console line matching, or rejects when the guest exits first. */
  waitFor(re: RegExp, ms: number): Promise<RegExpExecArray>;
  monitor(cmd: string): Promise<string>;
  exited: Promise<number | null>;
  kill(): void;
}

export interface BootOptions {
  kernel: string;
  initrd: string;
  /** Host folder the guest sees writable as the 9p tag "out". */
  outDir: string;
  monitorSocket: string;
  /** Extra kernel command line. */
  cmdline?: string;
  onLine?: (line: string) => void;
}

export function boot(o: BootOptions): Guest {
  const args = [
    '-machine',
    'q35,accel=tcg',
    '-m',
    '1024',
    '-smp',
    '1',
    '-vga',
    'std',
    '-display',
    'none',
    '-no-reboot',
    '-kernel',
    o.kernel,
    '-initrd',
    o.initrd,
    '-append',
    `console=ttyS0 quiet loglevel=3 panic=-1 ${o.cmdline ?? ''}`,
    '-serial',
    'stdio',
    '-monitor',
    `unix:${o.monitorSocket},server=on,wait=off`,
    '-virtfs',
    'local,path=/,mount_tag=host,security_model=none,readonly=on',
    '-virtfs',
    `local,path=${o.outDir},mount_tag=out,security_model=none`,
    '-nic',
    'none',
  ];
  const proc: ChildProcess = spawn(QEMU, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<{ re: RegExp; res: (m: RegExpExecArray) => void }> = [];
  const onLine = (l: string) => {
    const line = l.replace(/\r$/, '');
    lines.push(line);
    o.onLine?.(line);
    for (const w of [...waiters]) {
      const m = w.re.exec(line);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.res(m);
      }
    }
  };
  createInterface({ input: proc.stdout! }).on('line', onLine);
  createInterface({ input: proc.stderr! }).on('line', (l) => onLine(`[qemu] ${l}`));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));

  return {
    lines,
    exited,
    waitFor(re, ms) {
      const seen = lines.map((l) => re.exec(l)).find((m) => m);
      if (seen) return Promise.resolve(seen);
      return new Promise((res, rej) => {
        const t = setTimeout(() => rej(new Error(`guest: no line matching ${re} within ${ms} ms`)), ms);
        waiters.push({
          re,
          res: (m) => {
            clearTimeout(t);
            res(m);
          },
        });
        void exited.then((code) => {
          clearTimeout(t);
          rej(new Error(`guest exited (${code}) before ${re}`));
        });
      });
    },
    monitor(cmd) {
      return new Promise((res, rej) => {
        const s = connect(o.monitorSocket);
        let out = '';
        s.on('data', (d) => {
          out += d.toString();
          // The monitor prints a banner and a prompt, echoes the command, then a new prompt.
          if ((out.match(/\(qemu\) /g) ?? []).length >= 2) {
            s.end();
            res(out);
          }
        });
        s.on('error', rej);
        s.on('connect', () => s.write(cmd + '\n'));
      });
    },
    kill() {
      proc.kill('SIGKILL');
    },
  };
}
