// mDNS / DNS-SD announcement (bonjour-service): `_http._tcp` for browsers and `_mlds._tcp`
// for tools that look for display units, both with a TXT record describing the unit.
// Announced at start; withdrawn (goodbye packets, TTL 0) at stop; announced again after a
// reload and after a network change, so what a browser sees matches the unit now.
import { hostname, networkInterfaces } from 'node:os';
import { Bonjour } from 'bonjour-service';
import type { MdnsSettings, ServiceConfig } from '../config/types.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { MDNS, type MdnsControl } from '../capability/network.js';
import { VERSION } from '../version.js';

/** A TXT string is at most 255 bytes, `key=value` included. */
const TXT_MAX = 255;
/** Goodbye packets are sent before the socket closes; never wait longer than this for them. */
const STOP_WAIT_MS = 1000;

type MdnsComponent = Component & MdnsControl;

interface Announcement {
  name: string;
  port: number;
  host: string;
  txt: Record<string, string>;
  iface?: string;
}

function ipv4Of(name: string): string | undefined {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return name;
  return networkInterfaces()[name]?.find((a) => a.family === 'IPv4')?.address;
}

/** The last three bytes of a MAC tell units of one hostname (a factory image) apart. */
function macTail(iface?: string): string {
  const all = networkInterfaces();
  const list = iface
    ? (all[iface] ?? [])
    : Object.values(all)
        .flat()
        .filter((a) => a && !a.internal);
  const mac = list.find((a) => a && a.mac && a.mac !== '00:00:00:00:00:00')?.mac;
  return mac ? mac.split(':').slice(3).join('') : '';
}

/** The display ids, comma-separated, cut at a whole id to fit one TXT string. */
function idsText(ids: string[]): string {
  let out = '';
  for (const id of ids) {
    const next = out ? `${out},${id}` : id;
    if (Buffer.byteLength(`ids=${next},…`) > TXT_MAX) return `${out},…`;
    out = next;
  }
  return out;
}

export function announcement(
  config: ServiceConfig,
  settings: MdnsSettings,
  ports: { http: number; https?: number },
): Announcement {
  const host = hostname();
  const main = config.displays[0];
  const tail = macTail(settings.interface);
  const txt: Record<string, string> = {
    version: VERSION,
    ids: idsText(config.displays.map((d) => d.id)),
    displays: String(config.displays.length),
    resolution: main ? `${main.width}x${main.height}` : '',
    controllerType: main?.controllerType ?? '',
    hostname: host,
    path: '/info',
    ...(ports.https ? { https: String(ports.https) } : {}),
  };
  for (const [k, v] of Object.entries(txt))
    if (Buffer.byteLength(`${k}=${v}`) > TXT_MAX) txt[k] = v.slice(0, TXT_MAX - k.length - 1);
  return {
    name: settings.name ?? `${host} (mlds${tail ? ` ${tail}` : ''})`,
    port: ports.http,
    host: `${host}.local`,
    txt,
    iface: settings.interface,
  };
}

export function mdnsComponent(): MdnsComponent {
  let ctx: RuntimeContext | undefined;
  let bonjour: Bonjour | undefined;
  let current: Announcement | undefined;
  let announcedAt: string | undefined;
  let lastError: string | undefined;

  const withdraw = async () => {
    const b = bonjour;
    bonjour = undefined;
    if (!b) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, STOP_WAIT_MS);
      b.unpublishAll(() =>
        b.destroy(() => {
          clearTimeout(t);
          resolve();
        }),
      );
    });
  };

  const announce = (c: RuntimeContext) => {
    const settings = c.config().mdns;
    if (!settings) return;
    const a = announcement(c.config(), settings, c.ports());
    const address = a.iface ? ipv4Of(a.iface) : undefined;
    if (a.iface && !address) {
      lastError = `interface ${a.iface} has no IPv4 address; not announced`;
      c.log.warn({ interface: a.iface }, `mDNS: ${lastError}`);
      return;
    }
    const onError = (err: Error) => {
      lastError = err.message;
      c.log.warn({ err: err.message }, 'mDNS error');
    };
    // On one interface: send there, but receive the group on any address (a socket bound to a unicast address gets no
    // multicast).
    const opts = address ? { interface: address, bind: '0.0.0.0' } : {};
    const b = new Bonjour(opts as never, onError);
    // multicast-dns reports a taken or forbidden port as an 'error' event; unheard, it would end the process.
    (b as unknown as { server: { mdns: NodeJS.EventEmitter } }).server.mdns
      .on('error', onError)
      .on('warning', () => undefined);
    for (const type of ['http', 'mlds']) {
      b.publish({ name: a.name, type, port: a.port, host: a.host, txt: a.txt, probe: false });
    }
    bonjour = b;
    current = a;
    announcedAt = new Date(c.clock.now()).toISOString();
    lastError = undefined;
    c.log.info(
      { name: a.name, port: a.port, interface: a.iface ?? 'all' },
      'mDNS: announced _http._tcp and _mlds._tcp',
    );
  };

  const reannounce = async () => {
    if (!ctx) return;
    await withdraw();
    announce(ctx);
  };

  return {
    name: MDNS.name,
    async start(c) {
      ctx = c;
      announce(c);
    },
    async reload(c) {
      ctx = c;
      await reannounce();
    },
    reannounce,
    async stop() {
      ctx = undefined;
      await withdraw();
    },
    status: () => ({
      announced: bonjour !== undefined,
      name: current?.name,
      services: ['_http._tcp', '_mlds._tcp'],
      port: current?.port,
      interface: current?.iface ?? 'all',
      txt: current?.txt,
      announcedAt,
      ...(lastError ? { lastError } : {}),
    }),
  };
}
