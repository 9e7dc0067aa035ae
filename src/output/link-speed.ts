// Link state and speed of a network interface, from sysfs, for the Colorlight output's warnings.
import { readFileSync } from 'node:fs';

export interface LinkState {
  /** operstate: "up", "down", "unknown"... undefined when the interface does not exist. */
  state?: string;
  /** Mbit/s; undefined when the driver does not say (reading gives EINVAL while down). */
  speedMbps?: number;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function linkState(ifname: string): LinkState {
  const base = `/sys/class/net/${ifname}`;
  const speed = Number(read(`${base}/speed`));
  return { state: read(`${base}/operstate`), speedMbps: Number.isFinite(speed) && speed > 0 ? speed : undefined };
}

/** What is wrong with the link for a receiver card that needs gigabit Ethernet, if anything. */
export function linkWarnings(ifname: string, link: LinkState): string[] {
  if (link.state === undefined) return [`interface ${ifname} does not exist`];
  const w: string[] = [];
  if (link.state === 'down' || link.state === 'lowerlayerdown') w.push(`link down on ${ifname}`);
  if (link.speedMbps !== undefined && link.speedMbps < 1000) {
    w.push(`${ifname} runs at ${link.speedMbps} Mbit/s; Colorlight receivers need 1 Gbit/s`);
  }
  return w;
}
