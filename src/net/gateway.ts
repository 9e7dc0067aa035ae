// Whether the unit reaches its gateway, asked of the link layer: a datagram to the gateway
// makes the kernel resolve its MAC address (ARP), and the neighbour table says whether it
// answered. A gateway's firewall may drop ICMP and TCP to itself, but it answers ARP.
import { createSocket } from 'node:dgram';
import { ipJson, run } from './commands.js';

/** The discard port: the datagram itself needs no answer, only its delivery. */
const DISCARD_PORT = 9;
/** Long enough for an ARP reply on a LAN; the caller asks again until its deadline. */
const ARP_WAIT_MS = 1000;

interface Neighbour {
  dst: string;
  lladdr?: string;
  state?: string[];
}

/** Forgets what the kernel knew of the gateway before the change, so only a fresh answer counts. */
export async function forgetNeighbour(iface: string, gateway: string): Promise<void> {
  await run(['ip', 'neigh', 'flush', 'to', gateway, 'dev', iface]);
}

function poke(gateway: string): Promise<void> {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    const done = () => {
      try {
        s.close();
      } catch {
        /* closed already */
      }
      resolve();
    };
    // Unreachable networks fail at once; the neighbour table then says no.
    s.on('error', done);
    s.send(Buffer.alloc(0), DISCARD_PORT, gateway, done);
  });
}

export async function gatewayAnswers(iface: string, gateway: string): Promise<boolean> {
  await poke(gateway);
  await new Promise((r) => setTimeout(r, ARP_WAIT_MS));
  let entries: Neighbour[];
  try {
    entries = await ipJson<Neighbour[]>('neigh', 'show', 'to', gateway, 'dev', iface);
  } catch {
    return false;
  }
  return entries.some((n) => !!n.lladdr && !(n.state ?? []).some((s) => s === 'FAILED' || s === 'INCOMPLETE'));
}
