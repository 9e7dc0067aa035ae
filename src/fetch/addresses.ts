// What kind of address a fetch is about to connect to. Node's BlockList matches an IPv4 rule
// against the IPv4-mapped IPv6 form too (::ffff:127.0.0.1 is loopback), so one table serves both.
import { BlockList, isIP } from 'node:net';

/** Every class but `public` is an address a public URL may not lead to. */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'cgnat'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'public';

const TABLE: Array<[Exclude<AddressClass, 'public'>, string, number, 'ipv4' | 'ipv6']> = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['cgnat', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  // IETF protocol assignments and the benchmarking range: found inside networks, never on the internet.
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  // Class E and the broadcast address.
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  // The deprecated IPv4-compatible form (::a.b.c.d).
  ['reserved', '::', 96, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
  ['unique-local', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  // Site-local: deprecated, but still private where it is used.
  ['private', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const LISTS = new Map<Exclude<AddressClass, 'public'>, BlockList>();
for (const [cls, net, prefix, type] of TABLE) {
  let list = LISTS.get(cls);
  if (!list) LISTS.set(cls, (list = new BlockList()));
  list.addSubnet(net, prefix, type);
}

/** NAT64's well-known prefix carries an IPv4 address in its last 32 bits, which a translator then reaches. */
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

/** The class of an IP address (v4, v6 or IPv4-mapped v6); a string that is not an IP address is `reserved`. */
export function addressClass(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (type === 'ipv6' && NAT64.check(address, 'ipv6')) return addressClass(embeddedIpv4(address));
  // In the table's order: '::' is unspecified before the ::/96 rule calls it reserved.
  for (const [cls, list] of LISTS) if (list.check(address, type)) return cls;
  return 'public';
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedIpv4(address: string): string {
  const tail = address.slice(address.lastIndexOf(':') + 1);
  if (tail.includes('.')) return tail;
  const groups = address.split(':');
  const lo = parseInt(groups.at(-1) || '0', 16);
  const hi = parseInt(groups.at(-2) || '0', 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** The address without brackets or a zone, and an IPv4-mapped IPv6 address as plain IPv4. */
export function plainAddress(address: string): string {
  const a = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(a);
  if (mapped) {
    const hi = parseInt(mapped[1], 16),
      lo = parseInt(mapped[2], 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return dotted ? dotted[1] : a;
}
