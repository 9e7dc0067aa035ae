import path from 'node:path';
import { tmpdir } from 'node:os';
import type { ServiceConfig } from '../config/types.js';
import { Controller } from '../control/controller.js';
import { StateStore } from '../control/store.js';
import { preloadImage, setPictureLimit } from '../render/images.js';

/**
 * A Controller with no panel, no timers and no feedback: it resolves control messages
 * into display state exactly as the service does, for previews and benchmarks. Apply
 * with source 'replay' so nothing is stored or confirmed.
 */
export function offlineController(config: ServiceConfig): Controller {
  setPictureLimit(config.limits.maxPictureMegapixels);
  return new Controller(config, {
    clock: { now: () => Date.now(), setTimeout: () => undefined, clearTimeout: () => {} },
    store: new StateStore(path.join(tmpdir(), 'mlds-offline-unused')),
    log: { info() {}, warn() {} },
    redraw: async () => ({ ok: true, frame: 1 }),
    rendered: () => 0,
    confirm: () => {},
    preload: preloadImage,
  });
}
