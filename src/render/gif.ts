import { createRequire } from 'node:module';
import { createCanvas, createImageData, type Canvas } from 'canvas';
import type { GifReader } from 'omggif';
import { MAX_PICTURE_MEGAPIXELS, MEGAPIXEL } from '../media/picture-limits.js';

// The decoder loads with the first GIF shown (synchronously, as pictures are decoded), not at start.
const requireCjs = createRequire(import.meta.url);

/**
 * Above this many bytes of finished frames a GIF is played by decoding frame after frame
 * into one screen instead of keeping every frame: a 100-frame 1080p banner would be 800 MB.
 */
export const PRECOMPOSE_BUDGET = 48 * 1024 * 1024;

/** Browsers' rule, which GIF authors rely on: a delay under 20 ms plays as 100 ms. */
function delayOf(centiseconds: number): number {
  return centiseconds < 2 ? 100 : centiseconds * 10;
}

/**
 * An animated GIF as a sequence of finished pictures: frame i is the logical screen as it
 * looks while frame i shows, with every earlier frame's disposal (1 keep, 2 clear its
 * rectangle to transparent, 3 restore what was there before it) and transparency applied.
 */
export class GifAnimation {
  readonly width: number;
  readonly height: number;
  readonly delays: number[];
  readonly totalMs: number;
  /** Bytes held while playing, for the picture cache's budget. */
  readonly bytes: number;
  private readonly reader: GifReader;
  private readonly frames: Canvas[] | undefined;
  // Streaming state: the screen after frame `current`, and what frame `current` covered.
  private screen: Uint8ClampedArray;
  private current = -1;
  private before: Uint8ClampedArray | undefined;
  private canvas: Canvas | undefined;

  /**
   * `maxPixels`: the most a frame may have (limits.maxPictureMegapixels); a frame's descriptor may say more than the
   * screen.
   */
  constructor(bytes: Uint8Array, budget = PRECOMPOSE_BUDGET, maxPixels = MAX_PICTURE_MEGAPIXELS * MEGAPIXEL) {
    const { GifReader: Reader } = requireCjs('omggif') as typeof import('omggif');
    this.reader = new Reader(bytes);
    const n = this.reader.numFrames();
    if (n === 0) throw new Error('GIF has no frames');
    this.width = this.reader.width;
    this.height = this.reader.height;
    // Each frame is decoded at its own size, which its descriptor may set beyond the screen's.
    for (let i = 0; i < n; i++) {
      const f = this.reader.frameInfo(i);
      if (f.width * f.height > maxPixels)
        throw new Error(
          `GIF frame ${i + 1} is ${f.width}x${f.height}, too large to show (at most ` +
            `${+(maxPixels / MEGAPIXEL).toFixed(1)} megapixels: limits.maxPictureMegapixels)`,
        );
    }
    this.delays = Array.from({ length: n }, (_, i) => delayOf(this.reader.frameInfo(i).delay));
    this.totalMs = this.delays.reduce((s, d) => s + d, 0);
    this.screen = new Uint8ClampedArray(this.width * this.height * 4);
    const frameBytes = this.width * this.height * 4;
    if (n * frameBytes <= budget) {
      this.frames = [];
      for (let i = 0; i < n; i++)
        this.frames.push(this.toCanvas(this.advanceTo(i), createCanvas(this.width, this.height)));
      // The frames and the screen they were composed on, which the animation keeps.
      this.bytes = (n + 1) * frameBytes;
    } else {
      // Decode every frame once now, so a broken file fails at preload and not on screen.
      for (let i = 0; i < n; i++) this.advanceTo(i);
      this.bytes = 3 * frameBytes;
    }
  }

  get frameCount(): number {
    return this.delays.length;
  }

  /** True when frames are decoded as they are shown rather than kept. */
  get streaming(): boolean {
    return this.frames === undefined;
  }

  /** The finished picture of frame i. In streaming mode the canvas is reused: draw it before asking for another. */
  frame(i: number): Canvas {
    if (this.frames) return this.frames[i];
    this.canvas ??= createCanvas(this.width, this.height);
    if (i !== this.current) this.toCanvas(this.advanceTo(i), this.canvas);
    return this.canvas;
  }

  private toCanvas(px: Uint8ClampedArray, c: Canvas): Canvas {
    c.getContext('2d').putImageData(createImageData(px.slice(), this.width, this.height), 0, 0);
    return c;
  }

  /** Plays forward to frame i (from the start when i is behind) and returns the screen. */
  private advanceTo(i: number): Uint8ClampedArray {
    if (i < this.current) {
      this.screen.fill(0);
      this.current = -1;
      this.before = undefined;
    }
    while (this.current < i) {
      if (this.current >= 0) this.dispose(this.current);
      this.current++;
      const info = this.reader.frameInfo(this.current);
      this.before = info.disposal === 3 ? this.screen.slice() : undefined;
      // omggif writes only the frame's opaque pixels, so transparency shows what lies below.
      this.reader.decodeAndBlitFrameRGBA(this.current, this.screen);
    }
    return this.screen;
  }

  private dispose(i: number): void {
    const info = this.reader.frameInfo(i);
    if (info.disposal === 2) {
      const right = Math.min(this.width, info.x + info.width);
      for (let y = info.y; y < Math.min(this.height, info.y + info.height); y++) {
        this.screen.fill(0, (y * this.width + info.x) * 4, (y * this.width + right) * 4);
      }
    } else if (info.disposal === 3 && this.before) {
      this.screen.set(this.before);
    }
  }
}
