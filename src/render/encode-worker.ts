// The body of the screenshot encoder's worker thread (see encoder.ts): one encode at a time,
// into a canvas kept between encodes of the same size (a new 1080p canvas costs 20 ms of page
// faults on its first putImageData).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { Canvas } from 'canvas';
import { encodeCanvas, toCanvas, type ImageFormat } from './encode.js';

export interface EncodeJob { id: number; frameWidth: number; rows: number; data: Uint8Array; width: number; height: number; format: ImageFormat }
export type EncodeResult = { id: number; image: Uint8Array } | { id: number; error: string };

let scratch: Canvas | undefined;

// A screenshot is worth less than a frame on time: on Linux this thread alone (its id works as
// a pid for setpriority) runs at nice 10, so on a busy CPU the frame loop and commands go first.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // Not Linux, or not allowed: the encode runs at the process's priority.
}

parentPort!.on('message', (job: EncodeJob) => {
  let reply: EncodeResult;
  try {
    const frame = { width: job.frameWidth, height: job.rows, data: job.data, seq: 0 };
    scratch = toCanvas(frame, job.width, job.height, scratch);
    reply = { id: job.id, image: encodeCanvas(scratch, job.format) };
  } catch (err) {
    reply = { id: job.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
