/**
 * The network a client address belongs to, as the share of unfinished requests counts it:
 * its /24 for IPv4 (also written as `::ffff:a.b.c.d`), its /64 for IPv6 — what one site or
 * one customer line typically holds, so an attacker with many addresses of one block
 * counts once. `127.0.0.1` -> `127.0.0.0/24`, `2001:db8::1` -> `2001:db8:0:0::/64`.
 */
export function networkPrefix(ip: string): string {
  const v4 = ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
  if (!v4.includes(':')) {
    const dot = v4.lastIndexOf('.');
    return dot < 0 ? v4 : `${v4.slice(0, dot)}.0/24`;
  }
  // A zone (`fe80::1%eth0`) names the interface, not the network.
  const bare = v4.split('%')[0];
  const gap = bare.indexOf('::');
  const head = (gap < 0 ? bare : bare.slice(0, gap)).split(':').filter((g) => g !== '');
  const tail =
    gap < 0
      ? []
      : bare
          .slice(gap + 2)
          .split(':')
          .filter((g) => g !== '');
  const groups =
    gap < 0 ? head : [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
