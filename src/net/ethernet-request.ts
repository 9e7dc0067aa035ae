// The query of /setethernetconfig, checked completely before anything is written:
// `dhcp=true`, or `dhcp=false&ip=&netmask=&gateway=&dns=` with the gateway inside the
// subnet and neither address the subnet's network or broadcast address.
import { KEY_PARAM } from '../control/credentials.js';
import { parseQuery } from '../control/query.js';
import { MldsError } from '../errors.js';
import type { NetworkRequest } from '../capability/network.js';
import { broadcastOf, formatIpv4, maskOfPrefix, networkOf, notUnicast, parseIpv4, prefixOfMask } from './ipv4.js';

const FIELDS = ['dhcp', 'ip', 'netmask', 'gateway', 'dns'] as const;
/** resolv.conf reads three name servers; more would be silently unused. */
const MAX_DNS = 3;

const bad = (field: string, message: string) => new MldsError('MLDS_BAD_PARAMETER', message, field);

export function parseNetworkRequest(rawQuery: string): NetworkRequest {
  const given = new Map<string, string>();
  for (const { name, value } of parseQuery(rawQuery)) {
    if (name === KEY_PARAM) continue;
    if (!(FIELDS as readonly string[]).includes(name))
      throw bad(name, `"${name}" is not a parameter of /setethernetconfig (it takes ${FIELDS.join(', ')})`);
    if (given.has(name)) throw bad(name, `"${name}" is given more than once`);
    given.set(name, value);
  }
  const dhcp = given.get('dhcp');
  if (dhcp !== 'true' && dhcp !== 'false') throw bad('dhcp', '"dhcp" must be true or false');
  if (dhcp === 'true') {
    const extra = FIELDS.find((f) => f !== 'dhcp' && given.has(f));
    if (extra) throw bad(extra, `"${extra}" is not used with dhcp=true; leave it out`);
    return { dhcp: true };
  }
  for (const f of FIELDS) if (!given.get(f)) throw bad(f, `"${f}" is required with dhcp=false`);

  const ip = address(given.get('ip')!, 'ip');
  const prefix = netmask(given.get('netmask')!);
  const gateway = address(given.get('gateway')!, 'gateway');
  const net = networkOf(ip, prefix);
  const where = `${formatIpv4(net)}/${prefix}`;
  if (ip === net) throw bad('ip', `${formatIpv4(ip)} is the network address of ${where}, not a host address`);
  if (ip === broadcastOf(ip, prefix)) throw bad('ip', `${formatIpv4(ip)} is the broadcast address of ${where}`);
  if (networkOf(gateway, prefix) !== net) throw bad('gateway', `${formatIpv4(gateway)} is outside the subnet ${where}`);
  if (gateway === net) throw bad('gateway', `${formatIpv4(gateway)} is the network address of ${where}`);
  if (gateway === broadcastOf(ip, prefix))
    throw bad('gateway', `${formatIpv4(gateway)} is the broadcast address of ${where}`);
  if (gateway === ip) throw bad('gateway', 'the gateway must be another host than the unit itself');

  const dns = given
    .get('dns')!
    .split(',')
    .map((s) => s.trim());
  if (dns.length > MAX_DNS) throw bad('dns', `at most ${MAX_DNS} DNS servers, separated by commas`);
  for (const d of dns) {
    const n = parseIpv4(d);
    if (n === undefined) throw bad('dns', `"${d}" is not an IPv4 address (a.b.c.d); several are separated by commas`);
    // A resolver on the unit itself (127.0.0.1) is a valid DNS server, unlike a loopback gateway.
    const why = notUnicast(n);
    if (why && Math.floor(n / 2 ** 24) !== 127) throw bad('dns', `${d} ${why}`);
  }
  return {
    dhcp: false,
    ip: formatIpv4(ip),
    prefix,
    netmask: formatIpv4(maskOfPrefix(prefix)),
    gateway: formatIpv4(gateway),
    dns,
  };
}

function address(s: string, field: string): number {
  const n = parseIpv4(s);
  if (n === undefined) throw bad(field, `"${s}" is not an IPv4 address (a.b.c.d, each 0..255)`);
  const why = notUnicast(n);
  if (why) throw bad(field, `${s} ${why}`);
  return n;
}

/** A dotted netmask (255.255.255.0) or a prefix length (24); /31 and /32 leave no room for a gateway. */
function netmask(s: string): number {
  let prefix: number | undefined;
  if (/^\d{1,2}$/.test(s)) prefix = Number(s);
  else {
    const m = parseIpv4(s);
    if (m === undefined) throw bad('netmask', `"${s}" is not a netmask (255.255.255.0) or prefix length (24)`);
    prefix = prefixOfMask(m);
    if (prefix === undefined) throw bad('netmask', `${s} is not a contiguous netmask (ones, then zeros)`);
  }
  if (prefix < 1 || prefix > 30)
    throw bad(
      'netmask',
      `a prefix of /${prefix} is not usable: it must be /1../30 to hold the unit, a gateway, a network and a ` +
        `broadcast address`,
    );
  return prefix;
}
