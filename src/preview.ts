import type { ServiceConfig, UnitConfig } from './config/types.js';

import { Controller } from './control/controller.js';
import { StateStore } from './control/store.js';
import { Compositor } from './render/compositor.js';
import { encodeFrame } from './render/encode.js';
import { preloadImage } from './render/images.js';
import { PACKAGE_FONT_DIR } from './render/fonts.js';
import path from 'node:path';
import { tmpdir } from 'node:os';

/**
 * Renders every layout of every display once, each area with its defaultValue (or blank),
 * through the same control and compositor code as the running service: `mlds test`.
 */
export async function renderLayoutsToPng(config: ServiceConfig): Promise<Array<{ name: string; png: Buffer }>> {
  const quiet = { info() {}, warn() {} };
  const controller = new Controller(config, {
    clock: { now: () => Date.now(), setTimeout: () => undefined, clearTimeout: () => {} },
    store: new StateStore(path.join(tmpdir(), 'mlds-preview-unused')),
    log: quiet,
    redraw: async () => true,
    confirm: () => {},
    preload: preloadImage,
  });
  const out: Array<{ name: string; png: Buffer }> = [];
  for (const d of config.displays) {
    const unit: UnitConfig = { key: d.id, output: { driver: 'virtual' }, width: d.width, height: d.height, displayIds: [d.id] };
    for (const layout of d.layouts.keys()) {
      await controller.apply(`id=${encodeURIComponent(d.id)}&layout=${encodeURIComponent(layout)}`, 'reload');
      const compositor = new Compositor(unit, [d], (id) => controller.state(id), {
        effectDurationMs: 0, timezone: config.timezone, fontDirs: [path.join(config.dir, 'fonts'), PACKAGE_FONT_DIR],
      });
      // Far past any effect, so the PNG shows the settled picture.
      const frame = compositor.render(Date.now() + 60_000);
      out.push({ name: `${safe(d.id)}--${safe(layout)}.png`, png: encodeFrame(frame, d.width, d.height, 'png') });
    }
  }
  controller.dispose();
  return out;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
