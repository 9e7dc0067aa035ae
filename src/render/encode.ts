import { Canvas, createCanvas, createImageData, type PngConfig } from 'canvas';
import { clipRect, type Frame, type Rect } from '../frame.js';

export type ImageFormat = 'jpeg' | 'png';

/**
 * Lossless still; the SUB filter alone instead of libpng's adaptive choice of all five halves
 * the encode of a 1080p sign (56 -> 28 ms) for 10-15 % more bytes (docs/decisions.md).
 */
const PNG: PngConfig = { compressionLevel: 6, filters: Canvas.PNG_FILTER_SUB };
const JPEG_QUALITY = 0.9;

/**
 * The top-left width x height of a frame on a canvas. With `rects` (what changed since the
 * frame `reuse` holds) only those are put: a live view patches its copy.
 */
export function toCanvas(frame: Frame, width: number, height: number, reuse?: Canvas, rects?: Rect[]): Canvas {
  const w = Math.min(width, frame.width);
  const h = Math.min(height, frame.height);
  const same = reuse !== undefined && reuse.width === w && reuse.height === h;
  const c = same ? reuse : createCanvas(w, h);
  const data = new Uint8ClampedArray(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength);
  const img = createImageData(data, frame.width, frame.height);
  // Opaque (cairo RGB24), as a panel is: what was never drawn (all zero) is black, not transparent.
  const ctx = c.getContext('2d', { alpha: false });
  if (!same || !rects) {
    // Only the top-left w x h is put: a display may be smaller than the unit it draws on.
    ctx.putImageData(img, 0, 0, 0, 0, w, h);
    return c;
  }
  for (const r of rects) {
    const part = clipRect(r, { x: 0, y: 0, w, h });
    if (part.w > 0 && part.h > 0) ctx.putImageData(img, 0, 0, part.x, part.y, part.w, part.h);
  }
  return c;
}

/** Encodes the top-left width x height of a frame as JPEG or PNG (PNG is lossless: tests compare pixels). */
export function encodeFrame(frame: Frame, width: number, height: number, format: ImageFormat): Buffer {
  return encodeCanvas(toCanvas(frame, width, height), format);
}

export function encodeCanvas(c: Canvas, format: ImageFormat): Buffer {
  return format === 'png' ? c.toBuffer('image/png', PNG) : c.toBuffer('image/jpeg', { quality: JPEG_QUALITY });
}

/**
 * JPEG of the top-left width x height, compressed on libuv's thread pool so a live view
 * never holds up the frame loop. `scratch` is a canvas the caller may pass back in to
 * avoid reallocating it every frame (it must not be in use by another encode); with `rects`
 * (what changed since the frame it holds) only those are put on it.
 */
export function encodeJpegAsync(
  frame: Frame,
  width: number,
  height: number,
  quality = 0.8,
  scratch?: Canvas,
  rects?: Rect[],
): Promise<{ jpeg: Buffer; canvas: Canvas }> {
  const canvas = toCanvas(frame, width, height, scratch, rects);
  return new Promise((resolve, reject) => {
    canvas.toBuffer((err, jpeg) => (err ? reject(err) : resolve({ jpeg, canvas })), 'image/jpeg', { quality });
  });
}
