import { damageSince, type Frame, type Rect } from '../frame.js';

/**
 * Between whole pictures only what changed goes out; UDP and raw Ethernet lose packets
 * without a word (and a receiver may restart), so a whole picture goes at least this often
 * and a lost packet shows for at most this long.
 */
export const FULL_REFRESH_MS = 1000;

/**
 * What a receiver on a lossy wire shows, as far as the sender knows: DDP and Colorlight send
 * a frame's damage when the receiver shows the frame it starts from, the whole frame otherwise.
 * One send at a time (the runner never overlaps them): take() before it, sent() after it.
 */
export class WireDamage {
  private shown: number | undefined;
  private sending: number | undefined;
  private wholeAt = -Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  /** The rectangles to send for `frame`, or undefined: send it whole. Nothing counts as shown until sent(). */
  take(frame: Frame): Rect[] | undefined {
    const rects = this.now() - this.wholeAt < FULL_REFRESH_MS ? damageSince(frame, this.shown) : undefined;
    if (!rects) this.wholeAt = this.now();
    this.shown = undefined;
    this.sending = frame.seq;
    return rects;
  }

  /** The frame taken last reached the receiver (unless forget() came in between). */
  sent(): void {
    this.shown = this.sending;
    this.sending = undefined;
  }

  /** The receiver's picture is unknown or stale (an open, a new brightness table): the next send goes whole. */
  forget(): void {
    this.shown = undefined;
    this.sending = undefined;
  }
}
