import { damageSince, patch, type Frame } from '../frame.js';
import type { Output, VirtualDetails } from './types.js';

export interface VirtualOptions {
  /** Keep the panel's picture, patched frame by frame as a panel's memory is (tests): 4 bytes a pixel. */
  keepPicture?: boolean;
}

/**
 * A panel that is not there: /screenshot and the live view show the compositor's picture, so
 * by default nothing is kept; with keepPicture it holds what a panel would show.
 */
export class VirtualOutput implements Output {
  readonly driver = 'virtual';
  private picture: Frame | undefined;
  private shown: number | undefined;
  private patched = 0;
  private brightness = 100;

  constructor(private readonly opts: VirtualOptions = {}) {}

  async open(): Promise<void> {
    this.shown = undefined;
  }

  /** Nothing here waits: done inside the call. */
  send(frame: Frame): void {
    let rects = damageSince(frame, this.shown);
    if (rects) this.patched++;
    if (this.opts.keepPicture) {
      const p = this.picture;
      if (!p || p.width !== frame.width || p.height !== frame.height) {
        this.picture = {
          width: frame.width,
          height: frame.height,
          data: new Uint8Array(frame.width * frame.height * 4),
          seq: frame.seq,
        };
        rects = undefined;
      }
      patch(this.picture!.data, frame.data, frame.width, rects);
      this.picture!.seq = frame.seq;
    }
    this.shown = frame.seq;
  }

  async setBrightness(percent: number): Promise<void> {
    this.brightness = percent;
  }
  async close(): Promise<void> {}
  /** What the panel shows (keepPicture only). */
  latest(): Frame | undefined {
    return this.picture;
  }
  describe(): VirtualDetails {
    return { brightness: this.brightness, frames: this.shown ?? 0, patched: this.patched };
  }
}
