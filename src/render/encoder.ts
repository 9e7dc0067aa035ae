import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
// node-canvas stays loaded by the main thread: an addon loaded only by a worker is unloaded
// when that worker exits, and cairo's teardown then crashes the process (seen on Node 20).
import 'canvas';
import type { Frame } from '../frame.js';
import type { EncodeJob, EncodeResult } from './encode-worker.js';
import type { ImageFormat } from './encode.js';

export type { ImageFormat } from './encode.js';

const fromSource = import.meta.url.endsWith('.ts');

/**
 * The worker's code, which the bundle's build (scripts/bundle/build.mjs) puts in the bundle;
 * undefined in tsc's dist/ and under tsx.
 */
declare const MLDS_ENCODE_WORKER: string | undefined;

function startWorker(): Worker {
  // In the bundle the worker is started from that text, not from a file: nothing of the package
  // is read after the start, so one rewritten in place under the service cannot break it. Its
  // packages (canvas) resolve from the bundle's folder, as the bundle's own do.
  if (typeof MLDS_ENCODE_WORKER === 'string') {
    return new Worker(`(function (require) {${MLDS_ENCODE_WORKER}\n})(require('node:module').createRequire(${JSON.stringify(fileURLToPath(import.meta.url))}));`, { eval: true });
  }
  // From source under tsx (tests): Node 20 does not apply --import to workers, so the worker loads tsx itself.
  if (fromSource) return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./encode-worker.ts', import.meta.url).href)}); })`, { eval: true });
  return new Worker(new URL('./encode-worker.js', import.meta.url));
}

interface Pending { resolve(b: Buffer): void; reject(e: Error): void }
interface Thread { worker: Worker; pending: Map<number, Pending> }

/**
 * Encodes frames as JPEG or PNG in a worker thread with its own canvas, so the event loop
 * only pays for copying the frame into a message (docs/decisions.md has the measurements).
 * The worker starts with the first encode and exits after `idleMs` without one, giving
 * back its memory (about 10 MB, plus a canvas of the largest size it encoded). Encodes run
 * in the worker one after another; a worker that dies fails the encodes it held, and the
 * next encode starts a new one.
 */
export class ScreenshotEncoder {
  private thread: Thread | undefined;
  private nextId = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs = 30_000) {}

  encode(frame: Frame, width: number, height: number, format: ImageFormat): Promise<Buffer> {
    const t = this.thread ?? this.spawn();
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const id = ++this.nextId;
    // Only the rows the display covers travel, as one compact copy.
    const rows = Math.min(height, frame.height);
    const bytes = frame.width * rows * 4;
    const data = frame.data.byteOffset === 0 && frame.data.buffer.byteLength === bytes ? frame.data : frame.data.slice(0, bytes);
    const job: EncodeJob = { id, frameWidth: frame.width, rows, data, width, height, format };
    return new Promise((resolve, reject) => {
      t.pending.set(id, { resolve, reject });
      t.worker.ref();
      t.worker.postMessage(job);
    });
  }

  /** Whether a worker is running (tests check that it goes when idle). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  /** Ends the worker; encodes still pending fail. */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const t = this.thread;
    this.thread = undefined;
    if (t) await t.worker.terminate();
  }

  private spawn(): Thread {
    const worker = startWorker();
    const t: Thread = { worker, pending: new Map() };
    worker.on('message', (r: EncodeResult) => {
      const p = t.pending.get(r.id);
      t.pending.delete(r.id);
      if ('error' in r) p?.reject(new Error(r.error));
      else p?.resolve(Buffer.from(r.image.buffer, r.image.byteOffset, r.image.byteLength));
      if (t.pending.size === 0 && this.thread === t) {
        // Only encodes keep the process alive; an idle worker does not.
        worker.unref();
        this.idle = setTimeout(() => { if (t.pending.size === 0) void this.close(); }, this.idleMs);
        this.idle.unref();
      }
    });
    const gone = (err: Error) => {
      if (this.thread === t) this.thread = undefined;
      for (const p of t.pending.values()) p.reject(err);
      t.pending.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the encoder thread exited (${code})`)));
    this.thread = t;
    return t;
  }
}
