// Bytes from one serial device through a serialport binding: a read loop that collects what
// arrives, waiters for enough of it, and the difference between closing a port and losing it.
import type { LinkDeps, SerialPortHandle } from './lux-link.js';

/** What is kept of unread input: a chatty sensor never grows memory. */
const KEEP_BYTES = 4096;

export class SerialReader {
  private port: SerialPortHandle | undefined;
  private buf = Buffer.alloc(0);
  private wake: Array<() => void> = [];
  private lostFn: ((err: Error) => void) | undefined;

  constructor(
    readonly path: string,
    private readonly baudRate: number,
    private readonly deps: LinkDeps,
  ) {}

  get isOpen(): boolean {
    return this.port !== undefined;
  }

  onLost(fn: (err: Error) => void): void {
    this.lostFn = fn;
  }

  async open(): Promise<void> {
    await this.close();
    const binding = await this.deps.binding();
    const port = await binding.open({ path: this.path, baudRate: this.baudRate });
    this.port = port;
    this.buf = Buffer.alloc(0);
    void this.pump(port);
  }

  /** Everything received and not yet taken. */
  get received(): Buffer {
    return this.buf;
  }

  /** Drops the first `n` bytes received (all of them without `n`). */
  consume(n = this.buf.length): void {
    this.buf = this.buf.subarray(n);
  }

  async write(data: Buffer): Promise<void> {
    if (!this.port) throw new Error(`${this.path} is not open`);
    await this.port.write(data);
  }

  /** Resolves once `ready()` holds; rejects after `timeoutMs` or when the port closes. */
  until(ready: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (ready()) {
          done();
          resolve();
          return true;
        }
        if (!this.port) {
          done();
          reject(new Error(`${this.path} closed`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what} from ${this.path} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = () => {
        check();
      };
      const done = () => {
        clearTimeout(timer);
        this.wake = this.wake.filter((w) => w !== listener);
      };
      if (!check()) this.wake.push(listener);
    });
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = undefined;
    this.notify();
    if (port?.isOpen) await port.close().catch(() => undefined);
  }

  private notify(): void {
    for (const w of [...this.wake]) w();
  }

  private async pump(port: SerialPortHandle): Promise<void> {
    const chunk = Buffer.alloc(512);
    for (;;) {
      try {
        const { bytesRead } = await port.read(chunk, 0, chunk.length);
        if (port !== this.port) return;
        const joined = Buffer.concat([this.buf, chunk.subarray(0, bytesRead)]);
        this.buf = joined.length > KEEP_BYTES ? joined.subarray(joined.length - KEEP_BYTES) : joined;
        this.notify();
      } catch (err) {
        // Our own close() cancels the read: nothing was lost.
        if (port !== this.port) return;
        // Anything else means the device went away (EIO from an unplugged adapter or a pty whose other end closed).
        this.port = undefined;
        await port.close().catch(() => undefined);
        this.notify();
        this.lostFn?.(err as Error);
        return;
      }
    }
  }
}
