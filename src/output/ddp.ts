// A DDP receiver (WLED, an FPP remote, a pixel controller) at displayIp:displayPort over UDP.
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import type { Frame, Output } from './types.js';
import { nativeHelper, type UdpSocket } from './native.js';
import { brightnessTable } from './pixel-format.js';
import { DDP_PORT, HEADER_LEN, MAX_DATA, packetCount, packetize } from './ddp-protocol.js';

/** Sends one picture's packets; the native helper does it in one sendmmsg, dgram one by one. */
interface Sender {
  send(buf: Uint8Array, lengths: Uint32Array): Promise<void>;
  close(): Promise<void>;
}

function nativeSender(sock: UdpSocket): Sender {
  return {
    async send(buf, lengths) { sock.sendBatch(buf, lengths, 50); },
    async close() { sock.close(); },
  };
}

/** Without the helper DDP still works, at roughly four times the CPU (see docs/outputs.md). */
async function dgramSender(host: string, port: number): Promise<Sender> {
  const sock: Socket = createSocket('udp4');
  let pending: Error | undefined;
  sock.on('error', (err) => { pending = err; });
  await new Promise<void>((resolve, reject) => {
    sock.once('error', reject);
    sock.connect(port, host, () => { sock.off('error', reject); resolve(); });
  });
  return {
    send(buf, lengths) {
      if (pending) { const e = pending; pending = undefined; return Promise.reject(e); }
      return new Promise<void>((resolve, reject) => {
        let left = lengths.length, failed: Error | undefined;
        const done = (err: Error | null) => {
          failed ??= err ?? undefined;
          if (--left > 0) return;
          if (failed) reject(failed); else resolve();
        };
        for (let i = 0, at = 0; i < lengths.length; at += lengths[i++]) sock.send(buf.subarray(at, at + lengths[i]), done);
      });
    },
    close: () => new Promise<void>((r) => sock.close(() => r())),
  };
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

  /** `native: false` forces the dgram path (tests cover both). */
  constructor(readonly host: string, readonly port: number = DDP_PORT, private readonly opts: { native?: boolean } = {}) {}

  async open(): Promise<void> {
    const { address } = await lookup(this.host, { family: 4 });
    let native: ReturnType<typeof nativeHelper> | undefined;
    try { native = this.opts.native === false ? undefined : nativeHelper(); } catch { native = undefined; }
    // Connected in both cases, so the kernel reports an unreachable receiver (ECONNREFUSED) on a later send.
    this.sender = native ? nativeSender(new native.UdpSocket(address, this.port)) : await dgramSender(address, this.port);
    this.via = native ? 'sendmmsg' : 'dgram';
  }

  async send(frame: Frame): Promise<void> {
    const sender = this.sender;
    if (!sender) throw Object.assign(new Error(`EBADF: ddp to ${this.host}:${this.port} is not open`), { code: 'EBADF' });
    const pixels = frame.width * frame.height, n = packetCount(pixels * 3);
    // Reused: send() resolves only once every packet has left, and the runner never overlaps sends.
    if (this.lengths.length !== n) {
      this.buf = new Uint8Array(n * (HEADER_LEN + MAX_DATA));
      this.lengths = new Uint32Array(n);
    }
    this.seq = packetize(frame.data, pixels, this.buf, this.lengths, this.seq, this.lut).seq;
    await sender.send(this.buf, this.lengths);
  }

  /** DDP carries no brightness: pixels are scaled before they leave. */
  async setBrightness(percent: number): Promise<void> {
    this.brightness = percent;
    this.lut = brightnessTable(percent);
  }

  async close(): Promise<void> {
    const s = this.sender;
    this.sender = undefined;
    await s?.close();
  }

  describe(): Record<string, unknown> {
    return { target: `${this.host}:${this.port}`, via: this.via, sequence: this.seq, brightness: this.brightness };
  }
}
