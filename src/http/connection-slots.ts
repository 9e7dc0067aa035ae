import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { HttpLimits } from '../config/types.js';
import type { HttpLog } from './middleware.js';
import { networkPrefix } from './network-prefix.js';
import { refusalLog } from '../log/refusal-log.js';

interface Slot {
  readonly socket: Socket;
  readonly ip: string;
  readonly network: string;
  /** Address and port: what the raw socket and the TLS socket over it have in common. */
  readonly peer: string;
  /** Requests whose headers have arrived and whose answer has not gone yet. */
  busy: number;
}

/**
 * The service's `maxConnections` connection slots, taken in its own hands rather than by
 * Node's `server.maxConnections` (which closes the new connection, so clients that trickle
 * their headers, each holding a slot until the headers' time limit, keep everyone else out).
 *
 * A connection is *waiting* while it has no request in progress: from its start, and again
 * from the end of each answer (a kept-alive connection, a body still trickling in after its
 * answer) until the next request's line and headers are complete. With every slot taken, a
 * new connection takes the slot of the connection that has waited longest; a connection
 * whose answer is pending is never closed for room, and only when every slot has one is the
 * new connection closed unanswered. One network (/24, /64) holds at most
 * `maxUnfinishedPerNetwork` waiting connections: beyond it, its own longest waiting one goes,
 * so a single network cannot push out the slow clients of others.
 */
export class ConnectionSlots {
  private readonly held = new Set<Slot>();
  /** Waiting slots in the order they started waiting (a Set keeps insertion order): the first has waited longest. */
  private readonly waiting = new Set<Slot>();
  private readonly waitingIn = new Map<string, Set<Slot>>();
  private readonly byPeer = new Map<string, Slot>();

  constructor(
    private readonly limits: Pick<HttpLimits, 'maxConnections' | 'maxUnfinishedPerNetwork'>,
    private readonly report: {
      closed(ip: string, network: string, reason: 'full' | 'network'): void;
      dropped(ip: string): void;
    },
  ) {}

  /** Takes a slot for a new connection; false when it was closed because every slot has an answer pending. */
  admit(socket: Socket, ip: string): boolean {
    const network = networkPrefix(ip);
    const mates = this.waitingIn.get(network);
    if (mates && mates.size >= this.limits.maxUnfinishedPerNetwork) this.close(first(mates)!, 'network');
    if (this.held.size >= this.limits.maxConnections) {
      const longest = first(this.waiting);
      if (!longest) {
        this.report.dropped(ip);
        socket.destroy();
        return false;
      }
      this.close(longest, 'full');
    }
    const slot: Slot = { socket, ip, network, peer: peerOf(socket), busy: 0 };
    this.held.add(slot);
    this.byPeer.set(slot.peer, slot);
    this.wait(slot);
    socket.once('close', () => this.release(slot));
    return true;
  }

  /** A request's line and headers are complete on `socket` (plain or TLS): its slot is busy until `done` is called. */
  started(socket: Socket): (() => void) | undefined {
    const slot = this.byPeer.get(peerOf(socket));
    if (!slot) return undefined;
    if (slot.busy++ === 0) this.unwait(slot);
    return () => {
      if (--slot.busy === 0 && this.held.has(slot)) this.wait(slot);
    };
  }

  private close(slot: Slot, reason: 'full' | 'network'): void {
    // Released at once: the socket's 'close' comes a turn later, after the new one is counted.
    this.release(slot);
    this.report.closed(slot.ip, slot.network, reason);
    slot.socket.destroy();
  }

  private wait(slot: Slot): void {
    this.waiting.add(slot);
    let mates = this.waitingIn.get(slot.network);
    if (!mates) this.waitingIn.set(slot.network, (mates = new Set()));
    mates.add(slot);
  }

  private unwait(slot: Slot): void {
    this.waiting.delete(slot);
    const mates = this.waitingIn.get(slot.network);
    if (mates?.delete(slot) && mates.size === 0) this.waitingIn.delete(slot.network);
  }

  private release(slot: Slot): void {
    if (!this.held.delete(slot)) return;
    if (this.byPeer.get(slot.peer) === slot) this.byPeer.delete(slot.peer);
    this.unwait(slot);
  }
}

function first<T>(set: Set<T>): T | undefined {
  for (const v of set) return v;
  return undefined;
}

function peerOf(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}

/**
 * Slots for `server`'s connections, with their closings logged as counts (one line per
 * client or network per second, like every refusal). `admit` is left to the caller, which
 * first applies the per-client share.
 */
export function connectionSlots(server: Server | HttpsServer, log: HttpLog, limits: HttpLimits): ConnectionSlots {
  const made = refusalLog(log, (ip, n) => [
    { ip, closed: n, limit: limits.maxConnections },
    `connections closed to make room: ${n} from ${ip} (all ${limits.maxConnections} connections taken; these had ` +
      `waited longest on their headers)`,
  ]);
  const share = refusalLog(log, (network, n) => [
    { network, closed: n, limit: limits.maxUnfinishedPerNetwork },
    `connections closed: ${n} from ${network} (a network holds at most ${limits.maxUnfinishedPerNetwork} ` +
      `connections waiting on their headers)`,
  ]);
  const dropped = refusalLog(log, (ip, n) => [
    { ip, dropped: n, limit: limits.maxConnections },
    `connections refused: ${n} from ${ip} (all ${limits.maxConnections} connections have an answer pending)`,
  ]);
  const slots = new ConnectionSlots(limits, {
    closed: (ip, network, reason) => (reason === 'full' ? made(ip) : share(network)),
    dropped,
  });
  // Ahead of the app's listener, so a request's slot is busy before anything answers it.
  server.prependListener('request', (req, res) => {
    const done = slots.started(req.socket as Socket);
    if (done) res.once('close', done);
  });
  return slots;
}
