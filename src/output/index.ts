import type { OutputConfig } from '../config/types.js';
import type { Output } from './types.js';
import { VirtualOutput } from './virtual.js';

/** One Output per physical unit, chosen by its configured driver. */
export function createOutput(cfg: OutputConfig): Output {
  switch (cfg.driver) {
    case 'virtual':
      return new VirtualOutput();
    default:
      // fbdev, colorlight and ddp arrive with the outputs issue; until then a virtual sink.
      return new VirtualOutput();
  }
}
