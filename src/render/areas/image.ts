import type { CanvasRenderingContext2D } from 'canvas';
import { cachedPicture, fittedFrames, preloadImage } from '../images.js';
import { nextContentId, type Content } from './content.js';

/** Poll interval while a picture nobody preloaded is still decoding. */
const LOADING_POLL_MS = 50;

/**
 * A PNG, JPEG or GIF centred in its area, scaled down to fit. Animated GIFs loop forever
 * from `origin`, each frame for its own delay.
 */
export class ImageContent implements Content {
  private readonly id = nextContentId();
  private failed = false;

  constructor(
    private readonly file: string,
    private readonly width: number,
    private readonly height: number,
    private readonly origin: number,
  ) {
    if (!cachedPicture(file)) preloadImage(file).catch(() => { this.failed = true; });
  }

  /** Index of the animation frame showing at `now`, and when the next one starts. */
  frameAt(now: number): { index: number; until: number } {
    const pic = cachedPicture(this.file);
    if (!pic || pic.kind === 'still') return { index: 0, until: Infinity };
    const t = Math.max(0, now - this.origin);
    const cycleStart = now - (t % pic.totalMs);
    let end = cycleStart;
    for (let i = 0; i < pic.frames.length; i++) {
      end += pic.frames[i].delayMs;
      if (now < end) return { index: i, until: end };
    }
    return { index: 0, until: end + pic.frames[0].delayMs };
  }

  key(now: number): string {
    if (!cachedPicture(this.file)) return `i${this.id}:loading`;
    return `i${this.id}:${this.frameAt(now).index}`;
  }

  nextChange(now: number): number {
    if (!cachedPicture(this.file)) return this.failed ? Infinity : now + LOADING_POLL_MS;
    return this.frameAt(now).until;
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void {
    const pic = cachedPicture(this.file);
    if (!pic) return;
    const frame = fittedFrames(this.file, pic, this.width, this.height)[this.frameAt(now).index];
    const x = ox + Math.floor((this.width - frame.width) / 2);
    const y = oy + Math.floor((this.height - frame.height) / 2);
    ctx.drawImage(frame, x, y);
  }
}
