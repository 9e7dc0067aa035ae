import type { OutputConfig } from '../config/types.js';
import type { Output } from './types.js';
import { VirtualOutput } from './virtual.js';
import { FbdevOutput } from './fbdev.js';
import { ColorlightOutput } from './colorlight.js';
import { DdpOutput } from './ddp.js';

/**
 * One Output per physical unit, chosen by its configured driver. Nothing is opened here:
 * a device that is missing or a helper that is not built shows up when the runner opens it,
 * as a warning with a retry, so the other units start regardless.
 */
export function createOutput(cfg: OutputConfig): Output {
  switch (cfg.driver) {
    case 'virtual':
      return new VirtualOutput();
    case 'fbdev':
      return new FbdevOutput(cfg.device);
    case 'colorlight':
      return new ColorlightOutput(cfg.interface);
    case 'ddp':
      return new DdpOutput(cfg.host, cfg.port);
  }
}
