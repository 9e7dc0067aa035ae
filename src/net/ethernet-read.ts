// /getethernetconfig: the interface as the kernel has it now (rtnetlink through `ip -j`), not
// as a file says it should be.
import { readFile } from 'node:fs/promises';
import type { NetworkSettings } from '../config/types.js';
import { MldsError } from '../errors.js';
import { ipJson } from './commands.js';
import { dnsServers } from './dns-servers.js';
import { formatIpv4, maskOfPrefix } from './ipv4.js';
import type { EthernetConfig } from '../capability/network.js';

interface IpAddrInfo {
  family: 'inet' | 'inet6';
  local: string;
  prefixlen: number;
  dynamic?: boolean;
  scope?: string;
}
export interface IpLink {
  ifindex: number;
  ifname: string;
  flags: string[];
  mtu: number;
  operstate: string;
  link_type: string;
  address?: string;
  addr_info?: IpAddrInfo[];
}
interface IpRoute {
  dst: string;
  gateway?: string;
  dev: string;
  protocol?: string;
  metric?: number;
}

/**
 * The configured interface, else the one the IPv4 default route leaves by, else the first
 * Ethernet interface that is up, else the first Ethernet interface.
 */
export function chooseInterface(links: IpLink[], routes: IpRoute[], configured?: string): IpLink | undefined {
  if (configured) return links.find((l) => l.ifname === configured);
  const byMetric = [...routes].sort((a, b) => (a.metric ?? 0) - (b.metric ?? 0));
  for (const r of byMetric) {
    const l = links.find((x) => x.ifname === r.dev);
    if (l && l.link_type !== 'loopback') return l;
  }
  const ether = links.filter((l) => l.link_type === 'ether');
  return ether.find((l) => l.operstate === 'UP') ?? ether[0];
}

async function speed(ifname: string): Promise<number | null> {
  try {
    const v = Number((await readFile(`/sys/class/net/${ifname}/speed`, 'utf8')).trim());
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    // Reading speed of a link that is down fails with EINVAL.
    return null;
  }
}

/** The interface /setethernetconfig would configure (it must exist). */
export async function resolveInterface(settings: NetworkSettings): Promise<IpLink> {
  const [links, routes] = await Promise.all([
    ipJson<IpLink[]>('addr', 'show'),
    ipJson<IpRoute[]>('-4', 'route', 'show', 'default'),
  ]);
  const link = chooseInterface(links, routes, settings.interface);
  if (!link) {
    throw new MldsError(
      'MLDS_NETWORK_UNAVAILABLE',
      settings.interface
        ? `there is no network interface "${settings.interface}" (network.interface in config.json); the unit ` +
            `has ${links.map((l) => l.ifname).join(', ')}`
        : 'the unit has no Ethernet interface',
    );
  }
  return link;
}

/** The default gateway of one interface now, or null. */
export async function gatewayOf(ifname: string): Promise<{ gateway: string | null; dhcp: boolean }> {
  const routes = await ipJson<IpRoute[]>('-4', 'route', 'show', 'default', 'dev', ifname);
  const r = [...routes].sort((a, b) => (a.metric ?? 0) - (b.metric ?? 0)).find((x) => x.gateway);
  return { gateway: r?.gateway ?? null, dhcp: r?.protocol === 'dhcp' };
}

export async function readEthernet(settings: NetworkSettings): Promise<EthernetConfig> {
  const link = await resolveInterface(settings);
  const [gw, dns, mbps] = await Promise.all([gatewayOf(link.ifname), dnsServers(link.ifindex), speed(link.ifname)]);
  const addresses = (link.addr_info ?? [])
    .filter((a) => a.family === 'inet' || a.family === 'inet6')
    .map((a) => ({
      family: a.family === 'inet' ? ('ipv4' as const) : ('ipv6' as const),
      address: a.local,
      prefix: a.prefixlen,
      ...(a.family === 'inet' ? { netmask: formatIpv4(maskOfPrefix(a.prefixlen)) } : {}),
      dynamic: a.dynamic === true,
    }));
  const v4 = addresses.find((a) => a.family === 'ipv4');
  return {
    interface: link.ifname,
    mac: link.address ?? null,
    state: link.operstate.toLowerCase(),
    carrier: link.flags.includes('LOWER_UP'),
    speedMbps: mbps,
    mtu: link.mtu,
    dhcp: addresses.some((a) => a.family === 'ipv4' && a.dynamic) || gw.dhcp,
    ip: v4?.address ?? null,
    netmask: v4?.netmask ?? null,
    prefix: v4?.prefix ?? null,
    gateway: gw.gateway,
    dns: dns.servers,
    addresses,
    dnsSource: dns.source,
  };
}
