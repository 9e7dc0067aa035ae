import { createCanvas, createImageData } from 'canvas';
import type { Frame } from '../output/types.js';

/** Encodes the top-left width x height of a frame as JPEG or PNG (PNG is lossless: tests compare it byte for byte). */
export function encodeFrame(frame: Frame, width: number, height: number, format: 'jpeg' | 'png'): Buffer {
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d');
  const data = new Uint8ClampedArray(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength);
  ctx.putImageData(createImageData(data, frame.width, frame.height), 0, 0);
  return format === 'png' ? c.toBuffer('image/png') : c.toBuffer('image/jpeg', { quality: 0.9 });
}
