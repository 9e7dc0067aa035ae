import type { Frame, Output, VirtualDetails } from './types.js';

/** Keeps the latest frame in memory: the picture behind /screenshot when there is no panel. */
export class VirtualOutput implements Output {
  readonly driver = 'virtual';
  private last: Frame | undefined;
  private brightness = 100;

  async open(): Promise<void> {}
  async send(frame: Frame): Promise<void> { this.last = frame; }
  async setBrightness(percent: number): Promise<void> { this.brightness = percent; }
  async close(): Promise<void> {}
  latest(): Frame | undefined { return this.last; }
  describe(): VirtualDetails { return { brightness: this.brightness, frames: this.last?.seq ?? 0 }; }
}
