// A network namespace with a veth pair for raw-Ethernet tests: one end stays here (the sender),
// the peer lives in the namespace (the stand-in receiver card). Root and `ip` are required.
import { execFileSync, spawnSync } from 'node:child_process';
import { skipReason } from '../helpers/skip.js';

export interface VethNs {
  ns: string;
  host: string;
  peer: string;
  destroy(): void;
}

/** Why raw-Ethernet tests cannot run here, or undefined when they can. */
export function netnsUnavailable(): string | undefined {
  if (process.getuid?.() !== 0)
    return skipReason('needs root to create a network namespace (ip netns add)', 'hardware');
  if (spawnSync('ip', ['-V']).error) return skipReason('needs the ip command (Debian package iproute2)');
  return undefined;
}

export function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export function createVethNs(tag: string): VethNs {
  const id = `${tag}${process.pid % 100000}`;
  const v: VethNs = {
    ns: `mlds-${id}`,
    host: `${id}a`,
    peer: `${id}b`,
    destroy() {
      // Deleting one end of a veth removes both; each step may already be gone.
      spawnSync('ip', ['link', 'del', v.host], { stdio: 'ignore' });
      spawnSync('ip', ['netns', 'del', v.ns], { stdio: 'ignore' });
    },
  };
  try {
    ip('netns', 'add', v.ns);
    ip('link', 'add', v.host, 'type', 'veth', 'peer', 'name', v.peer);
    ip('link', 'set', v.peer, 'netns', v.ns);
    ip('link', 'set', v.host, 'up');
    ip('netns', 'exec', v.ns, 'ip', 'link', 'set', v.peer, 'up');
  } catch (err) {
    v.destroy();
    throw err;
  }
  return v;
}
