// A network namespace in which 198.51.100.7 stands for a public address and 10.99.0.7 for a
// device of the local network (both on the namespace's loopback interface, so nothing of the
// host changes), with its own /etc/hosts and resolv.conf (`ip netns exec` lays
// /etc/netns/<ns>/* over /etc). Servers of the test process are reached there through socat,
// which bridges a TCP port on one of those addresses to the server's Unix socket.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ip } from '../output/netns.js';
import { until } from '../helpers/wait.js';

export { netnsUnavailable } from '../output/netns.js';

export const PUBLIC = '198.51.100.7';
export const PRIVATE = '10.99.0.7';

export interface PublicNs {
  ns: string;
  dir: string;
  /** Serves `server` at address:port inside the namespace. */
  bridge(server: Server, address: string, port: number): Promise<void>;
  /** Starts a process inside the namespace; it is killed by destroy(). */
  spawn(argv: string[], env?: Record<string, string>): ChildProcess;
  destroy(): void;
}

export function createPublicNs(tag: string, files: { hosts: string; resolvConf?: string }): PublicNs {
  const ns = `mlds-${tag}${process.pid % 100000}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-public-ns-'));
  const children: ChildProcess[] = [];
  const pub: PublicNs = {
    ns,
    dir,
    async bridge(server, address, port) {
      const sock = path.join(dir, `${address}-${port}.sock`);
      await new Promise<void>((ok) => server.listen(sock, ok));
      pub.spawn(['socat', `TCP-LISTEN:${port},bind=${address},fork,reuseaddr`, `UNIX-CONNECT:${sock}`]);
      const ss = ['netns', 'exec', ns, 'ss', '-Hltn', 'src', `${address}:${port}`];
      const listening = () => spawnSync('ip', ss, { encoding: 'utf8' }).stdout;
      await until(() => /LISTEN/.test(listening()), 10_000, `socat on ${address}:${port}`);
    },
    spawn(argv, env = {}) {
      const options: SpawnOptions = { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } };
      const child = spawn('ip', ['netns', 'exec', ns, ...argv], options);
      children.push(child);
      return child;
    },
    destroy() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
      rmSync(`/etc/netns/${ns}`, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    ip('netns', 'add', ns);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'addr', 'add', `${PUBLIC}/32`, 'dev', 'lo');
    ip('-n', ns, 'addr', 'add', `${PRIVATE}/32`, 'dev', 'lo');
    mkdirSync(`/etc/netns/${ns}`, { recursive: true });
    writeFileSync(`/etc/netns/${ns}/hosts`, files.hosts);
    if (files.resolvConf !== undefined) writeFileSync(`/etc/netns/${ns}/resolv.conf`, files.resolvConf);
  } catch (err) {
    pub.destroy();
    throw err;
  }
  return pub;
}

/** Output of a child until it exits (stdout), or its stderr in the error. */
export function finished(child: ChildProcess, timeoutMs = 60_000): Promise<string> {
  let out = '',
    err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no end within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`exit ${code}: ${err}`));
    });
  });
}
