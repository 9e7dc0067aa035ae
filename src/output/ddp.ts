// A DDP receiver (WLED, an FPP remote, a pixel controller) at displayIp:displayPort over UDP.
//
// UDP says nothing when a picture is lost, except that a host whose port is closed answers
// with an ICMP "port unreachable", which the kernel reports on the connected socket AFTER the
// send that caused it has returned. So a picture counts as delivered only once it has left
// AND a short settle window passed with no error reported, and after any error the receiver
// counts as failing until REFUSED_HOLD_MS pass without another (hosts rate-limit ICMP, so
// most pictures to a closed port draw no answer at all). Errors reported between pictures go
// to the runner through onError(). docs/outputs.md, "DDP", has the whole story.
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { rowRuns } from '../frame.js';
import type { Frame, Output, DdpDetails } from './types.js';
import { optionalNativeHelper, type UdpSocket } from '../native/helper.js';
import { brightnessTable } from './pixel-format.js';
import { WireDamage } from './wire-damage.js';
import { DDP_PORT, HEADER_LEN, MAX_DATA, packetCount, packetize, type PixelRun } from './ddp-protocol.js';

/** How long after a picture leaves an ICMP error still counts against it: a LAN answers in well under a millisecond. */
export const SETTLE_MS = 10;
/**
 * After an error the receiver counts as failing until this long passes without another:
 * Linux answers a closed port with at most one ICMP per second per sender after a burst of
 * six, so at 50 fps most pictures to a dead receiver draw no error of their own.
 */
export const REFUSED_HOLD_MS = 2000;
/** Row runs a partial picture is cut into at most (each costs up to one extra packet). */
const MAX_RUNS = 8;

/** Sends one picture's packets; the native helper does it in one sendmmsg, dgram one by one. */
interface Sender {
  send(buf: Uint8Array, lengths: Uint32Array): Promise<void>;
  /**
   * An error the kernel recorded since the last call, cleared by asking (dgram reports through its 'error' event
   * instead).
   */
  takeError?(): Error | undefined;
  close(): Promise<void>;
}

function nativeSender(sock: UdpSocket): Sender {
  return {
    async send(buf, lengths) {
      sock.sendBatch(buf, lengths, 50);
    },
    takeError: () => sock.takeError() ?? undefined,
    async close() {
      sock.close();
    },
  };
}

/** Without the helper DDP still works, at roughly four times the CPU (see docs/outputs.md). */
async function dgramSender(host: string, port: number, report: (err: Error) => void): Promise<Sender> {
  const sock: Socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    sock.once('error', reject);
    sock.connect(port, host, () => {
      sock.off('error', reject);
      resolve();
    });
  });
  // Node reads the connected socket, so an ICMP error arrives here (recvmsg ECONNREFUSED).
  sock.on('error', report);
  return {
    send(buf, lengths) {
      return new Promise<void>((resolve, reject) => {
        let left = lengths.length,
          failed: Error | undefined;
        const done = (err: Error | null) => {
          failed ??= err ?? undefined;
          if (--left > 0) return;
          if (failed) reject(failed);
          else resolve();
        };
        for (let i = 0, at = 0; i < lengths.length; at += lengths[i++])
          sock.send(buf.subarray(at, at + lengths[i]), done);
      });
    },
    close: () => new Promise<void>((r) => sock.close(() => r())),
  };
}

export interface DdpOptions {
  /** false forces the dgram path (tests cover both). */
  native?: boolean;
  settleMs?: number;
  holdMs?: number;
  now?: () => number;
}

export class DdpOutput implements Output {
  readonly driver = 'ddp';
  private sender: Sender | undefined;
  private via = '';
  private buf = new Uint8Array(0);
  private lengths = new Uint32Array(0);
  private seq = 1;
  private brightness = 100;
  private lut: Uint8Array | undefined;
  private listeners: Array<(err: Error) => void> = [];
  /** The picture being sent and settled: an error reported meanwhile is its failure, not a separate one. */
  private inFlight: { error?: Error } | undefined;
  private lastError: Error | undefined;
  private lastErrorAt = -Infinity;
  private poll: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  /** Only the changed rows between whole pictures; a send under an older brightness table does not count as shown. */
  private readonly wire: WireDamage;

  constructor(
    readonly host: string,
    readonly port: number = DDP_PORT,
    private readonly opts: DdpOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.wire = new WireDamage(this.now);
  }

  async open(): Promise<void> {
    this.wire.forget();
    const { address } = await lookup(this.host, { family: 4 });
    const native = this.opts.native === false ? undefined : optionalNativeHelper();
    const report = (err: Error) => this.report(err);
    // Connected in both cases, so the kernel reports an unreachable receiver (ECONNREFUSED) back to us.
    const sock = native ? new native.UdpSocket(address, this.port) : undefined;
    if (sock) {
      this.sender = nativeSender(sock);
      this.via = 'sendmmsg';
      // Between pictures (static content) nobody sends; look for a late ICMP now and then.
      const sender = this.sender;
      this.poll = setInterval(() => this.report(sender.takeError?.()), 1000).unref();
    } else {
      this.sender = await dgramSender(address, this.port, report);
      this.via = 'dgram';
    }
  }

  /**
   * Resolves once the picture's packets left and SETTLE_MS passed with no error reported, and
   * no error was reported in the REFUSED_HOLD_MS before; rejects with the error otherwise.
   */
  async send(frame: Frame): Promise<void> {
    const sender = this.sender;
    if (!sender)
      throw Object.assign(new Error(`EBADF: ddp to ${this.host}:${this.port} is not open`), { code: 'EBADF' });
    const pixels = frame.width * frame.height,
      W = frame.width;
    const rects = this.wire.take(frame);
    const runs: PixelRun[] = rects
      ? rowRuns(rects, MAX_RUNS).map((r) => ({ from: r.y0 * W, to: r.y1 * W }))
      : [{ from: 0, to: pixels }];
    // Reused: send() resolves only once every packet has left, and the runner never overlaps sends.
    const capacity = packetCount(pixels * 3) + MAX_RUNS;
    if (this.lengths.length !== capacity) {
      this.buf = new Uint8Array(capacity * (HEADER_LEN + MAX_DATA));
      this.lengths = new Uint32Array(capacity);
    }
    const { count, seq } = runs.length
      ? packetize(frame.data, pixels, this.buf, this.lengths, this.seq, this.lut, runs)
      : { count: 0, seq: this.seq };
    this.seq = seq;
    this.report(sender.takeError?.()); // about an earlier picture: reported between sends
    const flight: { error?: Error } = {};
    this.inFlight = flight;
    try {
      if (count > 0) await sender.send(this.buf, this.lengths.subarray(0, count));
      await new Promise((r) => setTimeout(r, this.opts.settleMs ?? SETTLE_MS));
      this.report(sender.takeError?.());
    } catch (err) {
      this.report(err as Error);
    } finally {
      if (this.inFlight === flight) this.inFlight = undefined;
    }
    if (flight.error) throw flight.error;
    const since = this.now() - this.lastErrorAt,
      hold = this.opts.holdMs ?? REFUSED_HOLD_MS;
    if (since < hold && this.lastError) throw this.held(this.lastError, since, hold);
    this.wire.sent(); // the packets are out and no error came back
  }

  onError(listener: (err: Error) => void): void {
    this.listeners.push(listener);
  }

  /** DDP carries no brightness: pixels are scaled before they leave. */
  async setBrightness(percent: number): Promise<void> {
    this.brightness = percent;
    this.lut = brightnessTable(percent);
    this.wire.forget();
  }

  async close(): Promise<void> {
    const s = this.sender;
    this.sender = undefined;
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    await s?.close();
  }

  describe(): DdpDetails {
    return { target: `${this.host}:${this.port}`, via: this.via, sequence: this.seq, brightness: this.brightness };
  }

  /** An error from the socket: the picture in flight failed, or (between pictures) the runner hears of it. */
  private report(err: Error | undefined): void {
    if (!err) return;
    this.lastError = err;
    this.lastErrorAt = this.now();
    if (this.inFlight) {
      this.inFlight.error ??= err;
      return;
    }
    for (const l of this.listeners) l(err);
  }

  private held(err: Error, sinceMs: number, holdMs: number): Error {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    const cause = err.message.startsWith(code + ': ') ? err.message.slice(code.length + 2) : err.message;
    return Object.assign(
      new Error(
        `${code}: ${this.host}:${this.port} reported "${cause}" ${(sinceMs / 1000).toFixed(1)} s ago; ` +
          `the receiver counts as failing until ${holdMs / 1000} s pass without an error`,
      ),
      { code },
    );
  }
}
