import type { Worker } from 'node:worker_threads';
// node-canvas stays loaded by the main thread: an addon loaded only by a worker is unloaded
// when that worker exits, and cairo's teardown then crashes the process (seen on Node 20).
import 'canvas';
import type { Frame } from '../frame.js';
import type { EncodeJob, EncodeReply } from './encode-worker.js';
import type { ImageFormat } from './encode.js';
import { JobWorker } from '../util/job-worker.js';
import { startModuleWorker } from '../util/module-worker.js';

export type { ImageFormat } from './encode.js';

/**
 * The worker's code, which the bundle's build (scripts/bundle/build.mjs) puts in the bundle;
 * undefined in tsc's dist/ and under tsx.
 */
declare const MLDS_ENCODE_WORKER: string | undefined;

function startWorker(): Worker {
  return startModuleWorker(
    import.meta.url,
    'encode-worker',
    typeof MLDS_ENCODE_WORKER === 'string' ? MLDS_ENCODE_WORKER : undefined,
  );
}

/**
 * Encodes frames as JPEG or PNG in a worker thread with its own canvas, so the event loop
 * only pays for copying the frame into a message (docs/decisions.md has the measurements).
 * The worker starts with the first encode and exits after `idleMs` without one, giving
 * back its memory (about 10 MB, plus a canvas of the largest size it encoded).
 */
export class ScreenshotEncoder {
  private readonly jobs: JobWorker<EncodeJob, EncodeReply>;
  /**
   * The pixels' buffer the last encode handed back, moved to the worker and back for the next:
   * a copy per encode left 8 MB (1080p) of garbage in the worker each time, 45 MB more RSS
   * under ten screenshots a second before its next collection.
   */
  private spare: ArrayBuffer | undefined;

  constructor(idleMs = 30_000) {
    this.jobs = new JobWorker(startWorker, idleMs, 'encoder');
  }

  async encode(frame: Frame, width: number, height: number, format: ImageFormat): Promise<Buffer> {
    // Only the rows the display covers travel, as one compact copy.
    const rows = Math.min(height, frame.height);
    const bytes = frame.width * rows * 4;
    const buffer = this.spare?.byteLength === bytes ? this.spare : new ArrayBuffer(bytes);
    this.spare = undefined;
    const data = new Uint8Array(buffer);
    data.set(frame.data.subarray(0, bytes));
    const { image, pixels } = await this.jobs.run({ frameWidth: frame.width, rows, data, width, height, format }, [
      buffer,
    ]);
    this.spare = pixels.buffer as ArrayBuffer;
    return Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  }

  /** Whether a worker is running (tests check that it goes when idle). */
  get running(): boolean {
    return this.jobs.running;
  }

  /** Ends the worker; encodes still pending fail. */
  close(): Promise<void> {
    return this.jobs.close();
  }
}
