// One QEMU guest for the systemd boot test: TCG, -vga std (bochs-drm gives /dev/fb0), the host's
// root over 9p plus a writable share, the console on ttyS0, a shell on ttyS1 (a unix socket
// here), the monitor for screendumps, and a user-mode NIC that reaches nothing (restrict=on)
// except the service's port forwarded to a loopback port of this machine. The image test passes
// its own QEMU command line (`qemu`) for an aarch64 guest and keeps the shell and the monitor.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { freePort } from '../../helpers/ports.js';
import { createInterface } from 'node:readline';

export interface Machine {
  lines: string[];
  /** The first console line matching (seen already or to come). */
  waitFor(re: RegExp, ms: number): Promise<RegExpExecArray>;
  /** Runs a shell command in the guest; resolves with its output and exit code. */
  sh(cmd: string, ms?: number): Promise<{ out: string; code: number }>;
  screendump(file: string): Promise<void>;
  /** The loopback port forwarded to the guest's service port. */
  port: number;
  /** How many times the guest's shell has started (once per boot): after a reboot, wait for one more before sh(). */
  agentStarts(): number;
  exited: Promise<number | null>;
  kill(): void;
}

export interface MachineOptions {
  kernel: string;
  initrd: string;
  outDir: string;
  work: string;
  guestIp: string;
  guestPort: number;
  cmdline: string;
  onLine?: (line: string) => void;
  /** Another guest: its QEMU binary and arguments, given the sockets to serve and the forwarded port. */
  qemu?: (s: { agentSock: string; monSock: string; port: number }) => { bin: string; args: string[] };
}

async function connectWhenThere(path: string, ms: number): Promise<Socket> {
  const end = Date.now() + ms;
  for (;;) {
    if (existsSync(path)) {
      try {
        return await new Promise<Socket>((res, rej) => {
          const s = connect(path);
          s.once('connect', () => res(s));
          s.once('error', rej);
        });
      } catch {
        /* not listening yet */
      }
    }
    if (Date.now() > end) throw new Error(`${path} did not appear`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function start(o: MachineOptions): Promise<Machine> {
  const port = await freePort();
  const agentSock = `${o.work}/agent.sock`,
    monSock = `${o.work}/monitor.sock`;
  const custom = o.qemu?.({ agentSock, monSock, port });
  const proc = custom
    ? spawn(custom.bin, custom.args, { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(
        'qemu-system-x86_64',
        [
          '-machine',
          'q35,accel=tcg',
          '-m',
          '1536',
          '-smp',
          '2',
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
          `console=ttyS0 loglevel=3 panic=-1 net.ifnames=0 ${o.cmdline}`,
          '-serial',
          'stdio',
          '-serial',
          `unix:${agentSock},server=on,wait=off`,
          '-monitor',
          `unix:${monSock},server=on,wait=off`,
          '-virtfs',
          'local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap',
          '-virtfs',
          `local,path=${o.outDir},mount_tag=out,security_model=none`,
          '-nic',
          `user,model=virtio-net-pci,restrict=on,hostfwd=tcp:127.0.0.1:${port}-${o.guestIp}:${o.guestPort}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
  const lines: string[] = [];
  const waiters = new Set<(l: string) => void>();
  const onLine = (raw: string) => {
    // The console carries systemd's status colours and carriage returns.
    const line = raw.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, ''); // eslint-disable-line no-control-regex
    lines.push(line);
    o.onLine?.(line);
    for (const w of [...waiters]) w(line);
  };
  createInterface({ input: proc.stdout! }).on('line', onLine);
  createInterface({ input: proc.stderr! }).on('line', (l) => onLine(`[qemu] ${l}`));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));

  // The agent: connected before the guest writes, read line by line.
  const agent = await connectWhenThere(agentSock, 10_000);
  const agentLines: string[] = [];
  const agentWaiters = new Set<() => void>();
  createInterface({ input: agent }).on('line', (l) => {
    agentLines.push(l.replace(/\r$/, ''));
    for (const w of [...agentWaiters]) w();
  });
  let queue = Promise.resolve();

  const waitFor = (re: RegExp, ms: number) =>
    new Promise<RegExpExecArray>((res, rej) => {
      const seen = lines.map((l) => re.exec(l)).find((m) => m);
      if (seen) return res(seen);
      const check = (l: string) => {
        const m = re.exec(l);
        if (m) {
          done();
          res(m);
        }
      };
      const t = setTimeout(() => {
        done();
        rej(new Error(`guest: no console line matching ${re} within ${ms} ms`));
      }, ms);
      const done = () => {
        clearTimeout(t);
        waiters.delete(check);
      };
      waiters.add(check);
      void exited.then((code) => {
        done();
        rej(new Error(`guest exited (${code}) before ${re}`));
      });
    });

  const agentLine = (pred: (l: string) => boolean, from: number, ms: number) =>
    new Promise<number>((res, rej) => {
      const check = () => {
        const i = agentLines.findIndex((l, k) => k >= from && pred(l));
        if (i >= 0) {
          agentWaiters.delete(check);
          clearTimeout(t);
          res(i);
        }
      };
      const t = setTimeout(() => {
        agentWaiters.delete(check);
        rej(new Error(`guest agent: no answer within ${ms} ms`));
      }, ms);
      agentWaiters.add(check);
      check();
    });

  return {
    lines,
    port,
    exited,
    waitFor,
    async sh(cmd, ms = 60_000) {
      // One command at a time over the one serial line.
      const run = queue.then(async () => {
        await agentLine((l) => l === '__AGENT_READY__', 0, 300_000);
        const from = agentLines.length;
        agent.write(cmd.replace(/\n/g, ' ') + '\n');
        const end = await agentLine((l) => l.startsWith('__AGENT_END__ '), from, ms);
        return {
          out: agentLines.slice(from, end).join('\n'),
          code: Number(agentLines[end].slice('__AGENT_END__ '.length)),
        };
      });
      queue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    screendump(file) {
      return new Promise((res, rej) => {
        const s = connect(monSock);
        let out = '';
        s.on('data', (d) => {
          out += d.toString();
          if ((out.match(/\(qemu\) /g) ?? []).length >= 2) {
            s.end();
            res();
          }
        });
        s.on('error', rej);
        s.on('connect', () => s.write(`screendump ${file} -f png\n`));
      });
    },
    agentStarts: () => agentLines.filter((l) => l === '__AGENT_READY__').length,
    kill() {
      agent.destroy();
      proc.kill('SIGKILL');
    },
  };
}
