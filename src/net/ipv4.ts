// IPv4 addresses as 32-bit numbers: parsing written strictly (four decimal parts 0..255, no
// leading zeros, which some parsers read as octal), netmasks, subnets.

export function parseIpv4(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

export function formatIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

export function maskOfPrefix(prefix: number): number {
  return prefix === 0 ? 0 : 0xffffffff - (2 ** (32 - prefix) - 1);
}

/** The prefix length of a contiguous netmask (ones, then zeros), or undefined. */
export function prefixOfMask(mask: number): number | undefined {
  for (let p = 0; p <= 32; p++) if (maskOfPrefix(p) === mask) return p;
  return undefined;
}

export function networkOf(addr: number, prefix: number): number {
  return addr - (addr % 2 ** (32 - prefix));
}

export function broadcastOf(addr: number, prefix: number): number {
  return networkOf(addr, prefix) + 2 ** (32 - prefix) - 1;
}

/** Why an address cannot be a unit's own address or gateway, or undefined when it can. */
export function notUnicast(addr: number): string | undefined {
  const first = Math.floor(addr / 2 ** 24);
  if (first === 0) return 'is in 0.0.0.0/8 ("this network"), not a host address';
  if (first === 127) return 'is a loopback address';
  if (first >= 224 && first <= 239) return 'is a multicast address';
  if (first >= 240) return addr === 0xffffffff ? 'is the broadcast address' : 'is in the reserved range 240.0.0.0/4';
  return undefined;
}
