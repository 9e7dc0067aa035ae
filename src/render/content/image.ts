import type { CanvasRenderingContext2D } from 'canvas';
import { cachedPicture, fittedFrame, holdPicture, letGoOfPicture, preloadImage, type Picture } from '../images.js';
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
  private disposed = false;
  /** frameAt()'s last answer, reused while `now` stays in that frame's time: a GIF frame lasts several video frames. */
  private at = { index: 0, from: Infinity, until: -Infinity };
  private keyIndex = -1;
  private keyText = '';

  constructor(
    file: string,
    private readonly width: number,
    private readonly height: number,
    private readonly origin: number,
  ) {
    const pic = cachedPicture(file);
    if (pic) this.show(pic);
    else
      preloadImage(file).then(
        (p) => {
          if (!this.disposed) this.show(p);
        },
        () => {
          this.failed = true;
        },
      );
  }

  private show(pic: Picture): void {
    this.pic = pic;
    holdPicture(pic);
  }

  /**
   * Not drawn again: its picture no longer counts as shown, and the cache may drop it. The
   * reference goes too: the area keeps the content it drew last for a while, and a dropped
   * picture must not stay in memory through it.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.pic) letGoOfPicture(this.pic);
    this.pic = undefined;
  }

  /**
   * Index of the animation frame showing at `now`, and when the next one starts. One object,
   * overwritten by the next call that leaves the frame's time (read it before then).
   */
  frameAt(now: number): { index: number; until: number } {
    const pic = this.pic;
    const at = this.at;
    // `from` Infinity: an answer no later call may reuse.
    if (!pic || pic.kind === 'still') {
      at.index = 0;
      at.from = Infinity;
      at.until = Infinity;
      return at;
    }
    if (now >= at.from && now < at.until) return at;
    const { delays, totalMs } = pic.anim;
    const t = Math.max(0, now - this.origin);
    let end = now - (t % totalMs);
    for (let i = 0; i < delays.length; i++) {
      const start = end;
      end += delays[i];
      // Before the origin the animation waits on frame 0: that answer moves with `now`.
      if (now < end) {
        at.index = i;
        at.from = now >= this.origin ? start : Infinity;
        at.until = end;
        return at;
      }
    }
    at.index = 0;
    at.from = Infinity;
    at.until = end + delays[0];
    return at;
  }

  key(now: number): string {
    if (!this.pic) return `i${this.id}:loading`;
    const index = this.frameAt(now).index;
    if (index !== this.keyIndex) {
      this.keyIndex = index;
      this.keyText = `i${this.id}:${index}`;
    }
    return this.keyText;
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
