import type { Frame } from '../output/types.js';
import type { Compositor } from './compositor.js';

export type FrameSink = (frame: Frame) => Promise<boolean>;

/**
 * Decides when a unit's compositor draws and hands frames to its output.
 * invalidate() is the one entry point for "content changed".
 */
export class FrameLoop {
  private chain: Promise<boolean> = Promise.resolve(true);

  constructor(
    private readonly compositor: Compositor,
    private readonly sink: FrameSink,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {}
  stop(): void {}

  /** Draws a frame with the current state; resolves with whether it reached the output. */
  invalidate(): Promise<boolean> {
    this.chain = this.chain.then(() => this.sink(this.compositor.render(this.now())));
    return this.chain;
  }
}
