import { MessageChannel, type MessagePort } from 'node:worker_threads';

let sink: MessagePort | undefined;
/** Bytes handed over since the event loop last turned: they are held until it does. */
let held = 0;
/**
 * Past this, buffers are left to the collector until the loop turns: renders back to back
 * (a preview of many layouts; 600 frames of the 1080p bench screen held 730 MB, 85 MB with
 * the cap, 47 MB before buffers were handed over) keep no more than this beyond
 * what the collector itself would.
 */
export const HOLD_CAP = 32 * 1024 * 1024;

/**
 * Gives `buffer`'s memory back now rather than at a garbage collection. node-canvas's
 * getImageData returns a new buffer for every read-back (0.4 MB a frame for a 640x160
 * scroll, 2 MB for the 1080p six areas): V8 counts it as external memory and collects the
 * whole heap whenever 64 MB of it has piled up, a scavenge and a mark-compact every few
 * seconds for the frame loop alone. Transferring the buffer to a port whose other end is
 * closed detaches it; the message is dropped, and the memory freed, when the event loop next
 * turns (so before the next frame's timer), and malloc hands the same cached memory to the
 * next read-back: no collection is due. Measured (the 1080p six areas of bench/render.ts,
 * renders a turn apart): CPU per changed frame 1.13 -> 0.64 ms, page faults 91 -> 3 a frame.
 */
export function freeBuffer(buffer: ArrayBufferLike): void {
  if (!(buffer instanceof ArrayBuffer) || held + buffer.byteLength > HOLD_CAP) return;
  if (held === 0) setImmediate(() => { held = 0; }).unref();
  held += buffer.byteLength;
  if (!sink) {
    const { port1, port2 } = new MessageChannel();
    port2.close();
    port1.unref();
    sink = port1;
  }
  try {
    sink.postMessage(null, [buffer]);
  } catch {
    // Not detachable: the collector frees it, as before.
  }
}
