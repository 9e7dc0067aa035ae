// A DDP receiver (WLED, an FPP remote, a pixel controller) at displayIp:displayPort over UDP.
import { createSocket, type Socket } from 'node:dgram';
import type { Frame, Output } from './types.js';
import { brightnessTable } from './pixel-format.js';
import { DDP_PORT, HEADER_LEN, MAX_DATA, packetCount, packetize } from './ddp-protocol.js';

export class DdpOutput implements Output {
  readonly driver = 'ddp';
  private sock: Socket | undefined;
  private buf = new Uint8Array(0);
  private seq = 1;
  private brightness = 100;
  private lut: Uint8Array | undefined;
  /** An asynchronous socket error (ICMP unreachable) waiting to fail the next send. */
  private pending: Error | undefined;

  constructor(readonly host: string, readonly port: number = DDP_PORT) {}

  async open(): Promise<void> {
    const sock = createSocket('udp4');
    sock.on('error', (err) => { this.pending = err; });
    // Connected, so the kernel reports an unreachable receiver (ECONNREFUSED) on our next send.
    await new Promise<void>((resolve, reject) => {
      sock.once('error', reject);
      sock.connect(this.port, this.host, () => { sock.off('error', reject); resolve(); });
    });
    this.sock = sock;
    this.pending = undefined;
  }

  async send(frame: Frame): Promise<void> {
    const sock = this.sock;
    if (!sock) throw Object.assign(new Error(`EBADF: ddp to ${this.host}:${this.port} is not open`), { code: 'EBADF' });
    if (this.pending) { const e = this.pending; this.pending = undefined; throw e; }
    const pixels = frame.width * frame.height;
    const need = packetCount(pixels * 3) * (HEADER_LEN + MAX_DATA);
    // Reused: send() resolves only once every packet has left, and the runner never overlaps sends.
    if (this.buf.length !== need) this.buf = new Uint8Array(need);
    const buf = this.buf;
    const { lengths, seq } = packetize(frame.data, pixels, buf, this.seq, this.lut);
    this.seq = seq;
    await new Promise<void>((resolve, reject) => {
      let left = lengths.length, failed: Error | undefined;
      const done = (err: Error | null) => {
        failed ??= err ?? undefined;
        if (--left > 0) return;
        if (failed) reject(failed); else resolve();
      };
      for (let i = 0, at = 0; i < lengths.length; at += lengths[i++]) sock.send(buf.subarray(at, at + lengths[i]), done);
    });
  }

  /** DDP carries no brightness: pixels are scaled before they leave. */
  async setBrightness(percent: number): Promise<void> {
    this.brightness = percent;
    this.lut = brightnessTable(percent);
  }

  async close(): Promise<void> {
    const sock = this.sock;
    this.sock = undefined;
    if (sock) await new Promise<void>((r) => sock.close(() => r()));
  }

  describe(): Record<string, unknown> {
    return { target: `${this.host}:${this.port}`, sequence: this.seq, brightness: this.brightness };
  }
}
