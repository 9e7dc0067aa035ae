// Small helpers the output tests share.
import type { Frame } from '../../src/output/types.js';
import { until } from '../helpers/wait.js';

/** The R,G,B bytes of an RGBA frame, as DDP and Colorlight carry them. */
export function rgbOf(f: Pick<Frame, 'width' | 'height' | 'data'>): Buffer {
  const b = Buffer.alloc(f.width * f.height * 3);
  for (let i = 0; i < f.width * f.height; i++) b.set(f.data.subarray(i * 4, i * 4 + 3), i * 3);
  return b;
}

/** Polls `cond` every few ms; packets arrive on their own schedule. */
export async function waitFor(what: string, cond: () => boolean, ms = 5000): Promise<void> {
  await until(cond, ms, what, 5);
}
