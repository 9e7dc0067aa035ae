import { createCanvas, createImageData, type Canvas } from 'canvas';
import { GifReader } from 'omggif';

export interface GifFrame {
  /** The full logical screen as it looks while this frame shows (earlier frames composited under it). */
  canvas: Canvas;
  delayMs: number;
}

/** Browsers' rule, which GIF authors rely on: a delay under 20 ms plays as 100 ms. */
function delayOf(centiseconds: number): number {
  return centiseconds < 2 ? 100 : centiseconds * 10;
}

/**
 * Decodes every frame of a GIF into a finished picture, applying each frame's disposal
 * (1 keep, 2 clear its rectangle to transparent, 3 restore what was there before it) and
 * transparency, so playback is only a matter of picking the frame for the time.
 */
export function decodeGif(bytes: Uint8Array): GifFrame[] {
  const gif = new GifReader(bytes);
  const { width, height } = gif;
  const screen = new Uint8ClampedArray(width * height * 4);
  const frames: GifFrame[] = [];
  for (let i = 0; i < gif.numFrames(); i++) {
    const info = gif.frameInfo(i);
    const before = info.disposal === 3 ? screen.slice() : undefined;
    // omggif writes only the frame's opaque pixels, so transparency shows what lies below.
    gif.decodeAndBlitFrameRGBA(i, screen);
    const canvas = createCanvas(width, height);
    canvas.getContext('2d').putImageData(createImageData(screen.slice(), width, height), 0, 0);
    frames.push({ canvas, delayMs: delayOf(info.delay) });
    if (info.disposal === 2) {
      for (let y = info.y; y < Math.min(height, info.y + info.height); y++) {
        screen.fill(0, (y * width + info.x) * 4, (y * width + Math.min(width, info.x + info.width)) * 4);
      }
    } else if (before) {
      screen.set(before);
    }
  }
  return frames;
}
