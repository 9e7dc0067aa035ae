import { MessageChannel, type MessagePort } from 'node:worker_threads';

let sink: MessagePort | undefined;
/** Whether the far end of `sink` has finished closing: from then on a transfer frees at once. */
let closed = false;
/** Bytes handed over while the close was still under way: they are held until it completes. */
let held = 0;
/**
 * The transfer list, one array for every call: a frame loop allocates nothing for it. It
 * keeps the last buffer, detached (empty), until the next call: emptying it would free its
 * storage and the next call would allocate it again.
 */
const transfer: ArrayBuffer[] = [new ArrayBuffer(0)];
/**
 * Past this, buffers are left to the collector until the far end has closed: renders back
 * to back before then (a preview of many layouts at start-up; 600 frames of the 1080p bench
 * screen held 730 MB, 85 MB with the cap, 47 MB before buffers were handed over) keep no more
 * than this beyond what the collector itself would.
 */
export const HOLD_CAP = 32 * 1024 * 1024;

let sinkClosed: Promise<void> | undefined;
function openSink(): MessagePort {
  if (!sink) {
    const { port1, port2 } = new MessageChannel();
    sinkClosed = new Promise((resolve) =>
      port1.once('close', () => {
        closed = true;
        held = 0;
        resolve();
      }),
    );
    port2.close();
    port1.unref();
    sink = port1;
  }
  return sink;
}

/** Resolves once a buffer handed over is freed within the call (the far end's close has completed). */
export function freeingAtOnce(): Promise<void> {
  const port = openSink();
  if (closed) return Promise.resolve();
  // The port is unreferenced so that it never keeps a process alive; a caller waiting here does.
  port.ref();
  return sinkClosed!.then(() => {
    port.unref();
  });
}

/**
 * Gives `buffer`'s memory back now rather than at a garbage collection. node-canvas's
 * getImageData returns a new buffer for every read-back (0.4 MB a frame for a 640x160
 * scroll, 2 MB for the 1080p six areas): V8 counts it as external memory and collects the
 * whole heap whenever 64 MB of it has piled up, a scavenge and a mark-compact every few
 * seconds for the frame loop alone. Transferring the buffer to a port whose other end is
 * closed detaches it and drops the message, and malloc hands the same memory to the next
 * read-back: no collection is due. Measured (the 1080p six areas of bench/render.ts, renders
 * a turn apart): CPU per changed frame 1.13 -> 0.64 ms, page faults 91 -> 3 a frame.
 *
 * Until the far end's close has completed (the first turn of the event loop) a message is
 * queued, not dropped, and its memory held: only then does HOLD_CAP apply. After that the
 * memory is freed within the call, with no callback per frame (a setImmediate a frame was a
 * scavenge every few seconds of a scroll).
 */
export function freeBuffer(buffer: ArrayBufferLike): void {
  if (!(buffer instanceof ArrayBuffer)) return;
  const port = openSink();
  if (!closed) {
    if (held + buffer.byteLength > HOLD_CAP) return;
    held += buffer.byteLength;
  }
  transfer[0] = buffer;
  try {
    port.postMessage(null, transfer);
  } catch {
    // Not detachable: the collector frees it, as before.
    transfer[0] = new ArrayBuffer(0);
  }
}
