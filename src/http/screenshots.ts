import type { Frame } from '../frame.js';
import { MldsError } from '../errors.js';
import { ScreenshotEncoder, type ImageFormat } from '../render/encoder.js';

/** Turns a frame into an image without holding up the event loop. */
export type EncodeFn = (frame: Frame, width: number, height: number, format: ImageFormat) => Promise<Buffer>;

export interface ScreenshotOptions {
  /** Encodes running at once (default 1: on a 2-core controller a second one competes with the frame loop). */
  maxConcurrent?: number;
  /** Encodes waiting for a free slot (default 4); a request that would add one more gets 503. */
  maxQueued?: number;
  /** The encoder (default: a worker thread, see render/encoder.ts); tests inject their own. */
  encode?: EncodeFn;
}

/** A picture to make: one display's part of its unit's frame, in one format. */
export interface ShotRequest {
  displayId: string;
  width: number;
  height: number;
  format: ImageFormat;
  /** The display's latest frame, read when the request arrives and again when its encode starts. */
  latest(): Frame | undefined;
}

interface Job {
  key: string;
  request: ShotRequest;
  frame?: Frame;
  promise: Promise<Buffer>;
  resolve(b: Buffer): void;
  reject(e: unknown): void;
}

export interface ScreenshotStats {
  encodes: number;
  /** Requests answered from an encode that was running, waiting or finished for the same frame. */
  shared: number;
  /** Requests refused with 503 because maxQueued encodes were already waiting. */
  refused: number;
  running: number;
  queued: number;
  /** The most encodes that ever ran at once (never above maxConcurrent). */
  peakRunning: number;
}

/** Counts of every Screenshots in this process (the service has one): tests read them around HTTP requests. */
export const screenshotTotals = { encodes: 0, shared: 0, refused: 0 };

/**
 * Still screenshots (GET /screenshot): every frame is encoded at most once per display
 * and format, however many clients ask, and at most maxConcurrent encodes run at once.
 *
 * A request is answered from, in this order: the finished image of the current frame; an
 * encode of that frame already running; the encode of that display and format waiting for
 * a slot (it takes the newest frame when it starts, so nobody gets a picture older than
 * their request); else a new waiting encode, unless maxQueued are waiting already: then
 * 503 with Retry-After. Waiting encodes are at most one per display and format, so the
 * queue only fills when many displays are asked for at once.
 */
export class Screenshots {
  private readonly finished = new WeakMap<Frame, Map<string, Buffer>>();
  private readonly running = new Set<Job>();
  private readonly queue = new Map<string, Job>();
  private readonly maxConcurrent: number;
  private readonly maxQueued: number;
  private readonly encode: EncodeFn;
  private readonly counts = { encodes: 0, shared: 0, refused: 0, peakRunning: 0 };
  private readonly owned: ScreenshotEncoder | undefined;

  constructor(options: ScreenshotOptions = {}) {
    this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 1);
    this.maxQueued = Math.max(0, options.maxQueued ?? 4);
    if (options.encode) this.encode = options.encode;
    else {
      const encoder = (this.owned = new ScreenshotEncoder());
      this.encode = (f, w, h, fmt) => encoder.encode(f, w, h, fmt);
    }
  }

  /**
   * The image of the display's current frame. Throws MldsError MLDS_UNAVAILABLE when there is none yet or too many
   * wait.
   */
  get(req: ShotRequest): Promise<Buffer> {
    const frame = req.latest();
    if (!frame) throw new MldsError('MLDS_UNAVAILABLE', `display "${req.displayId}" has no frame yet`);
    const key = `${req.displayId}\n${req.width}x${req.height}\n${req.format}`;
    const done = this.finished.get(frame)?.get(key);
    if (done) return this.share(Promise.resolve(done));
    for (const j of this.running) if (j.key === key && j.frame === frame) return this.share(j.promise);
    const waiting = this.queue.get(key);
    if (waiting) return this.share(waiting.promise);
    if (this.running.size >= this.maxConcurrent && this.queue.size >= this.maxQueued) {
      this.counts.refused++;
      screenshotTotals.refused++;
      throw new MldsError(
        'MLDS_UNAVAILABLE',
        `${this.queue.size} screenshots are waiting to be encoded; retry shortly`,
        undefined,
        { retryAfter: 1 },
      );
    }
    let resolve!: (b: Buffer) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<Buffer>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.queue.set(key, { key, request: req, promise, resolve, reject });
    this.pump();
    return promise;
  }

  stats(): ScreenshotStats {
    return { ...this.counts, running: this.running.size, queued: this.queue.size };
  }

  /** Stops the default encoder's worker (shutdown); an injected encoder is the caller's. */
  async close(): Promise<void> {
    await this.owned?.close();
  }

  private share(p: Promise<Buffer>): Promise<Buffer> {
    this.counts.shared++;
    screenshotTotals.shared++;
    return p;
  }

  private pump(): void {
    while (this.running.size < this.maxConcurrent && this.queue.size > 0) {
      const [key, job] = this.queue.entries().next().value as [string, Job];
      this.queue.delete(key);
      const frame = job.request.latest();
      if (!frame) {
        job.reject(new MldsError('MLDS_UNAVAILABLE', `display "${job.request.displayId}" has no frame any more`));
        continue;
      }
      const done = this.finished.get(frame)?.get(key);
      if (done) {
        job.resolve(done);
        continue;
      }
      job.frame = frame;
      this.running.add(job);
      this.counts.encodes++;
      screenshotTotals.encodes++;
      this.counts.peakRunning = Math.max(this.counts.peakRunning, this.running.size);
      const { width, height, format } = job.request;
      this.encode(frame, width, height, format)
        .then(
          (image) => {
            let byKey = this.finished.get(frame);
            if (!byKey) this.finished.set(frame, (byKey = new Map()));
            byKey.set(key, image);
            job.resolve(image);
          },
          (err: unknown) => job.reject(err),
        )
        .finally(() => {
          this.running.delete(job);
          this.pump();
        });
    }
  }
}
