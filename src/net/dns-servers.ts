// Which DNS servers an interface uses, from the running system. systemd keeps per-link state
// under /run/systemd, but only for the network namespace it manages: a process in another
// namespace (a container, `ip netns exec`) reads its own /etc/resolv.conf instead.
import { readFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { run } from './commands.js';

/** systemd-resolved's own stub listener: not a server a technician can reach. */
const STUB = '127.0.0.53';

export interface DnsServers {
  servers: string[];
  source: string;
}

async function read(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** `KEY=a b c` lines of systemd's state files. */
function stateList(text: string | undefined, key: string): string[] {
  const line = text?.split('\n').find((l) => l.startsWith(`${key}=`));
  return line
    ? line
        .slice(key.length + 1)
        .split(/\s+/)
        .filter(Boolean)
        .map((s) => s.replace(/#.*$/, ''))
    : [];
}

function resolvConf(text: string | undefined): string[] {
  return (text ?? '')
    .split('\n')
    .map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1])
    .filter((s): s is string => !!s && s !== STUB);
}

let sameNamespace: Promise<boolean> | undefined;

/**
 * True when this process shares the network namespace of PID 1, whose links systemd describes (a process never changes
 * namespace: asked once).
 */
function inSystemdNamespace(): Promise<boolean> {
  sameNamespace ??= lookNamespace();
  return sameNamespace;
}

async function lookNamespace(): Promise<boolean> {
  try {
    return statSync('/proc/self/ns/net').ino === statSync('/proc/1/ns/net').ino;
  } catch {
    // /proc/1 may be hidden from us; a named namespace (ip netns) still identifies itself.
    const r = await run(['ip', 'netns', 'identify']);
    return r.code !== 0 || r.stdout.trim() === '';
  }
}

export async function dnsServers(ifindex: number): Promise<DnsServers> {
  if (await inSystemdNamespace()) {
    const sources: Array<[string, string]> = [
      [`/run/systemd/resolve/netif/${ifindex}`, 'SERVERS'],
      [`/run/systemd/netif/links/${ifindex}`, 'DNS'],
    ];
    for (const [file, key] of sources) {
      const servers = stateList(await read(file), key);
      if (servers.length) return { servers, source: file };
    }
    const upstream = resolvConf(await read('/run/systemd/resolve/resolv.conf'));
    if (upstream.length) return { servers: upstream, source: '/run/systemd/resolve/resolv.conf' };
  }
  return { servers: resolvConf(await read('/etc/resolv.conf')), source: '/etc/resolv.conf' };
}
