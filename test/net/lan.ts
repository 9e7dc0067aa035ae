// A small LAN made of two network namespaces the test owns: `unit` (where the service runs)
// and `gw` (the router), joined by a veth pair. Nothing touches the host's own interfaces.
// The service inside `unit` is reached through a Unix socket that socat bridges into the
// namespace: a socket path is one file system, whatever the network namespace.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { ip, netnsUnavailable } from '../output/netns.js';
import { REPO, until } from '../helpers/service.js';
import { LISTEN_MS } from '../helpers/emulation.js';

export { netnsUnavailable };

export interface Lan {
  unit: string;
  gw: string;
  unitIf: string;
  gwIf: string;
  /** 10.77.<n>: every address of this LAN starts with it. */
  net: string;
  /** Runs a command inside a namespace; returns stdout. */
  exec(ns: string, ...argv: string[]): string;
  /** The unit's resolv.conf as `ip netns exec` shows it to the service. */
  setResolvConf(text: string): void;
  destroy(): void;
}

export function createLan(tag: string): Lan {
  const id = `${tag}${process.pid % 10000}`;
  const n = (process.pid % 200) + 20;
  const lan: Lan = {
    unit: `mlds-${id}u`,
    gw: `mlds-${id}g`,
    unitIf: `${id}u`,
    gwIf: `${id}g`,
    net: `10.77.${n}`,
    exec(ns, ...argv) {
      const r = spawnSync('ip', ['netns', 'exec', ns, ...argv], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${argv.join(' ')} in ${ns}: ${r.stderr}`);
      return r.stdout;
    },
    setResolvConf(text) {
      mkdirSync(`/etc/netns/${lan.unit}`, { recursive: true });
      // Rewritten in place: the running service sees this file through a bind mount of its inode.
      writeFileSync(`/etc/netns/${lan.unit}/resolv.conf`, text);
    },
    destroy() {
      spawnSync('ip', ['netns', 'del', lan.unit], { stdio: 'ignore' });
      spawnSync('ip', ['netns', 'del', lan.gw], { stdio: 'ignore' });
      rmSync(`/etc/netns/${lan.unit}`, { recursive: true, force: true });
    },
  };
  try {
    ip('netns', 'add', lan.unit);
    ip('netns', 'add', lan.gw);
    // Created inside `unit`, its peer moved to `gw`: the host never holds either end.
    ip('-n', lan.unit, 'link', 'add', lan.unitIf, 'type', 'veth', 'peer', 'name', lan.gwIf);
    ip('-n', lan.unit, 'link', 'set', lan.gwIf, 'netns', lan.gw);
    ip('-n', lan.unit, 'link', 'set', 'lo', 'up');
    ip('-n', lan.unit, 'link', 'set', lan.unitIf, 'up');
    ip('-n', lan.gw, 'link', 'set', 'lo', 'up');
    ip('-n', lan.gw, 'addr', 'add', `${lan.net}.1/24`, 'dev', lan.gwIf);
    ip('-n', lan.gw, 'link', 'set', lan.gwIf, 'up');
  } catch (err) {
    lan.destroy();
    throw err;
  }
  return lan;
}

export interface NsService {
  child: ChildProcess;
  port: number;
  stderr(): string;
  get(
    pathAndQuery: string,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    json: Record<string, unknown>;
    text: string;
  }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `mlds start` inside a namespace, and an HTTP client for it through a Unix socket. */
export async function startInNamespace(
  ns: string,
  configFile: string,
  stateDir: string,
  env: Record<string, string>,
): Promise<NsService> {
  const cli = path.join(REPO, 'src/cli.ts');
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      ns,
      process.execPath,
      '--import',
      'tsx',
      cli,
      'start',
      '--config',
      configFile,
      '--port',
      '0',
      '--state-dir',
      stateDir,
    ],
    { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  let bridge: ChildProcess | undefined;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    bridge?.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await gone;
    }
  };
  try {
    await until(
      () => /listening on port \d+/.test(stderr) || child.exitCode !== null,
      LISTEN_MS,
      'the service to listen',
    );
    if (child.exitCode !== null) throw new Error(`the service ended: ${stderr}`);
    const port = Number(/listening on port (\d+)/.exec(stderr)![1]);
    const sock = path.join(path.dirname(stateDir), `http-${port}.sock`);
    // A service started again may get the port it had before: the socket file a killed bridge
    // left must not pass for the new bridge's before that one listens (ECONNREFUSED).
    rmSync(sock, { force: true });
    bridge = spawn(
      'ip',
      ['netns', 'exec', ns, 'socat', `UNIX-LISTEN:${sock},fork,unlink-early`, `TCP:127.0.0.1:${port}`],
      { stdio: 'ignore' },
    );
    await until(() => spawnSync('test', ['-S', sock]).status === 0, 10_000, 'the socket bridge');
    const get: NsService['get'] = (p, headers = {}) =>
      new Promise((resolve, reject) => {
        const req = request({ socketPath: sock, path: p, headers: { Host: 'unit', ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const json = /json/.test(res.headers['content-type'] ?? '')
              ? (JSON.parse(text) as Record<string, unknown>)
              : {};
            resolve({ status: res.statusCode ?? 0, headers: res.headers, json, text });
          });
        });
        req.on('error', reject);
        req.end();
      });
    return { child, port, stderr: () => stderr, get, stop };
  } catch (err) {
    await stop('SIGKILL');
    throw err;
  }
}
