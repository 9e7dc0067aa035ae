// The body of the screenshot encoder's worker thread (see encoder.ts): one encode at a time,
// into a canvas kept between encodes of the same size (a new 1080p canvas costs 20 ms of page
// faults on its first putImageData).
import type { Canvas } from 'canvas';
import { encodeCanvas, toCanvas, type ImageFormat } from './encode.js';
import { serveJobs } from '../util/job-worker.js';
import { lowerThreadPriority } from '../util/module-worker.js';

export interface EncodeJob {
  frameWidth: number;
  rows: number;
  data: Uint8Array;
  width: number;
  height: number;
  format: ImageFormat;
}
/** The image, and the job's pixels handed back (moved, not copied) for the next job to fill. */
export interface EncodeReply {
  image: Uint8Array;
  pixels: Uint8Array;
}

let scratch: Canvas | undefined;

// A screenshot is worth less than a frame on time.
lowerThreadPriority(10);

serveJobs(
  (job: EncodeJob): EncodeReply => {
    const frame = { width: job.frameWidth, height: job.rows, data: job.data, seq: 0 };
    scratch = toCanvas(frame, job.width, job.height, scratch);
    return { image: encodeCanvas(scratch, job.format), pixels: job.data };
  },
  (r) => [r.pixels.buffer as ArrayBuffer],
);
