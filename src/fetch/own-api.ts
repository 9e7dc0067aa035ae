// The unit's own API, which the service never fetches: its HTTP and HTTPS ports on any address
// that reaches this machine. The HTTP layer fills the ports in as it listens (fetch/ stands
// below it and cannot ask); the addresses are read at each check, so an address DHCP gave a
// minute ago counts.
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { plainAddress } from './addresses.js';

const ports = new Map<object, number>();

/** A server of the unit's API listens on `port`; `owner` (the server) takes it back with ownApiClosed. */
export function ownApiListening(owner: object, port: number): void {
  ports.set(owner, port);
}

export function ownApiClosed(owner: object): void {
  ports.delete(owner);
}

/** The ports the unit's API answers on now. */
export function ownApiPorts(): number[] {
  return [...new Set(ports.values())];
}

/**
 * True when address:port is the unit's own API: one of its ports on a loopback or unspecified
 * address (both reach this machine: a connection to 0.0.0.0 lands on it) or on an address of
 * one of its interfaces, in any spelling (IPv4-mapped IPv6 included).
 */
export function isOwnApi(address: string, port: number): boolean {
  if (!ownApiPorts().includes(port)) return false;
  const a = plainAddress(address);
  const family = isIP(a);
  if (family === 0) return false;
  return ownAddresses().check(a, family === 4 ? 'ipv4' : 'ipv6');
}

function ownAddresses(): BlockList {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addSubnet('0.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  list.addAddress('::', 'ipv6');
  for (const addrs of Object.values(networkInterfaces())) {
    for (const i of addrs ?? []) list.addAddress(plainAddress(i.address), i.family === 'IPv4' ? 'ipv4' : 'ipv6');
  }
  return list;
}
