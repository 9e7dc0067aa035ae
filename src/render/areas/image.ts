import type { CanvasRenderingContext2D } from 'canvas';
import { cachedPicture, fittedFrame, preloadImage, type Picture } from '../images.js';
import { nextContentId, type Content } from './content.js';

/** Poll interval while a picture nobody preloaded is still decoding. */
const LOADING_POLL_MS = 50;

/**
 * A PNG, JPEG or GIF centred in its area, scaled down to fit. Animated GIFs loop forever
 * from `origin`, each frame for its own delay. The content holds its decoded picture, so
 * the cache may drop it without the screen losing it.
 */
export class ImageContent implements Content {
  private readonly id = nextContentId();
  private pic: Picture | undefined;
  private failed = false;

  constructor(
    file: string,
    private readonly width: number,
    private readonly height: number,
    private readonly origin: number,
  ) {
    this.pic = cachedPicture(file);
    if (!this.pic) {
      preloadImage(file).then((p) => { this.pic = p; }, () => { this.failed = true; });
    }
  }

  /** Index of the animation frame showing at `now`, and when the next one starts. */
  frameAt(now: number): { index: number; until: number } {
    const pic = this.pic;
    if (!pic || pic.kind === 'still') return { index: 0, until: Infinity };
    const { delays, totalMs } = pic.anim;
    const t = Math.max(0, now - this.origin);
    let end = now - (t % totalMs);
    for (let i = 0; i < delays.length; i++) {
      end += delays[i];
      if (now < end) return { index: i, until: end };
    }
    return { index: 0, until: end + delays[0] };
  }

  key(now: number): string {
    return this.pic ? `i${this.id}:${this.frameAt(now).index}` : `i${this.id}:loading`;
  }

  nextChange(now: number): number {
    if (!this.pic) return this.failed ? Infinity : now + LOADING_POLL_MS;
    return this.frameAt(now).until;
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void {
    if (!this.pic) return;
    const frame = fittedFrame(this.pic, this.frameAt(now).index, this.width, this.height);
    const x = ox + Math.floor((this.width - frame.width) / 2);
    const y = oy + Math.floor((this.height - frame.height) / 2);
    ctx.drawImage(frame, x, y);
  }
}
