import type { CanvasRenderingContext2D } from 'canvas';
import type { Align } from '../../config/types.js';
import { nextContentId, type Content } from './content.js';
import { fillCopyPositions, maxCopies, scrollDistance, timeOfDistance } from './scroll.js';
import { measureWidth, TextStrip, type TextStyle } from './strip.js';

export interface TextOptions {
  text: string;
  style: TextStyle;
  width: number;
  height: number;
  align: Align;
  pxPerSecond: number;
  /** Number of spaces (in the area's font) between the tail and the next head. */
  headToTail: number;
  /** ms epoch at which the head stands at the right edge (distance 0). */
  origin: number;
  /** Pixels per move (scrollStep); 1 when omitted. */
  step?: number;
}

/**
 * A line of text in an area: static with its alignment when it fits, otherwise scrolling
 * right to left forever, each repetition `headToTail` spaces behind the previous tail.
 */
export class TextContent implements Content {
  readonly id = nextContentId();
  readonly strip: TextStrip;
  readonly scrolls: boolean;
  /** Distance in px from one head to the next (text + gap), whole pixels so the loop is exact. */
  readonly period: number;
  private readonly staticX: number;
  private readonly inkRows: { y: number; h: number };
  /** Room for the copies in view, refilled by each draw. */
  private readonly xs: Float64Array;

  constructor(readonly opts: TextOptions) {
    this.strip = new TextStrip(opts.text, opts.style, opts.height);
    this.scrolls = this.strip.width > opts.width;
    const gap = opts.headToTail > 0 ? measureWidth(' '.repeat(opts.headToTail), opts.style) : 0;
    this.period = Math.max(1, Math.round(this.strip.width + gap));
    const free = opts.width - this.strip.width;
    this.staticX = opts.align === 'center' ? Math.round(free / 2) : opts.align === 'right' ? Math.round(free) : 0;
    this.inkRows = { y: this.strip.inkTop, h: this.strip.inkBottom - this.strip.inkTop };
    this.xs = new Float64Array(this.scrolls ? maxCopies(opts.width, Math.ceil(this.strip.width), this.period) : 1);
  }

  get textFit(): { fit: string; size: number } {
    return { fit: this.scrolls ? 'scrolled' : 'as-is', size: this.opts.style.size };
  }

  get origin(): number {
    return this.opts.origin;
  }

  distance(now: number): number {
    return scrollDistance(this.opts.pxPerSecond, this.opts.origin, now, this.opts.step);
  }

  /** The scroll distance in pixels (0 for a line that stands still). */
  key(now: number): number {
    return this.scrolls ? this.distance(now) : 0;
  }

  nextChange(now: number): number {
    if (!this.scrolls) return Infinity;
    return Math.max(
      now + 1,
      timeOfDistance(this.opts.pxPerSecond, this.opts.origin, this.distance(now) + (this.opts.step ?? 1)),
    );
  }

  /** Left edges of the visible copies, relative to the area, into this.xs: how many. */
  private fillPositions(now: number): number {
    if (!this.scrolls) {
      this.xs[0] = this.staticX;
      return 1;
    }
    return fillCopyPositions(this.xs, this.opts.width, Math.ceil(this.strip.width), this.period, this.distance(now));
  }

  rows(): { y: number; h: number } {
    return this.inkRows;
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void {
    const n = this.fillPositions(now);
    for (let i = 0; i < n; i++) this.strip.draw(ctx, ox + this.xs[i], oy, ox, ox + this.opts.width);
  }
}
