import { hostname, networkInterfaces } from 'node:os';

/** Who this machine is on the network: what the info screen shows and /status reports. */
export interface Identity {
  hostname: string;
  /** Every non-loopback IPv4 address with its interface and that interface's MAC. */
  addresses: Array<{ interface: string; address: string; mac: string }>;
}

export function identity(): Identity {
  const addresses: Identity['addresses'] = [];
  for (const [name, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal) addresses.push({ interface: name, address: a.address, mac: a.mac });
    }
  }
  return { hostname: hostname(), addresses };
}
