// What others ask of the network capabilities (src/net) without importing them: HTTP's
// /getethernetconfig and /setethernetconfig drive the network component; the network component
// has mDNS announce the unit again once its addresses changed.
import { capabilityKey } from './capability-key.js';

/** The interface as the kernel has it now (/getethernetconfig). */
export interface EthernetConfig {
  interface: string;
  mac: string | null;
  /** The kernel's operational state: up, down, dormant, unknown... */
  state: string;
  /** A cable is in and the other end is alive (LOWER_UP). */
  carrier: boolean;
  speedMbps: number | null;
  mtu: number;
  /** An IPv4 address with a lease lifetime, or a default route from DHCP. */
  dhcp: boolean;
  /** The first IPv4 address, in the form /setethernetconfig takes. */
  ip: string | null;
  netmask: string | null;
  prefix: number | null;
  gateway: string | null;
  dns: string[];
  addresses: Array<{ family: 'ipv4' | 'ipv6'; address: string; prefix: number; netmask?: string; dynamic: boolean }>;
  /** Where `dns` was read from. */
  dnsSource: string;
}

/** A checked /setethernetconfig request. */
export type NetworkRequest =
  { dhcp: true } | { dhcp: false; ip: string; prefix: number; netmask: string; gateway: string; dns: string[] };

export interface ChangeAnswer {
  interface: string;
  file: string;
  rollbackSeconds: number;
}

export interface NetworkControl {
  read(): Promise<EthernetConfig>;
  /**
   * Writes the change and returns what the answer says; `apply` must be called once the
   * answer is sent (the address may change under the connection). Throws MLDS_NETWORK_BUSY
   * while a change is watched, MLDS_NETWORK_UNAVAILABLE when nothing could be written.
   */
  change(req: NetworkRequest): Promise<{ answer: ChangeAnswer; apply(): void }>;
  /** Seconds until the change being watched is settled, undefined when none is. */
  busySeconds(): number | undefined;
}

export interface MdnsControl {
  /** Withdraws and announces again (addresses, ports or facts changed). */
  reannounce(): Promise<void>;
}

/** Running on Linux only. */
export const NETWORK = capabilityKey<NetworkControl>('network');
/** Running when `mdns` is configured. */
export const MDNS = capabilityKey<MdnsControl>('mdns');
