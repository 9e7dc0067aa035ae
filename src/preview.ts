import type { ServiceConfig, UnitConfig } from './config/types.js';

import { Controller } from './control/controller.js';
import { StateStore } from './control/store.js';
import { Compositor } from './render/compositor.js';
import { encodeFrame } from './render/encode.js';
import { preloadImage } from './render/images.js';
import { PACKAGE_FONT_DIR } from './render/fonts.js';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { pointer, type ConfigFault } from './config/faults.js';
import { probeFramebuffer } from './output/fbdev.js';
import { tmpdir } from 'node:os';

/**
 * A Controller with no panel, no timers and no feedback: it resolves control messages
 * into display state exactly as the service does, for previews and benchmarks. Apply
 * with source 'reload' so nothing is stored or confirmed.
 */
export function offlineController(config: ServiceConfig): Controller {
  return new Controller(config, {
    clock: { now: () => Date.now(), setTimeout: () => undefined, clearTimeout: () => {} },
    store: new StateStore(path.join(tmpdir(), 'mlds-offline-unused')),
    log: { info() {}, warn() {} },
    redraw: async () => true,
    confirm: () => {},
    preload: preloadImage,
  });
}

/**
 * Renders every layout of every display once, each area with its defaultValue (or blank),
 * through the same control and compositor code as the running service: `mlds test`.
 */
export async function renderLayoutsToPng(config: ServiceConfig): Promise<Array<{ name: string; png: Buffer }>> {
  const controller = offlineController(config);
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

/**
 * A display larger than its framebuffer is a configuration fault (it would be cut off);
 * checked where the device is present, since `mlds test` may run away from the unit.
 */
export function checkFramebuffers(config: ServiceConfig): { faults: ConfigFault[]; warnings: string[] } {
  const faults: ConfigFault[] = [];
  const warnings: string[] = [];
  for (const u of config.units) {
    if (u.output.driver !== 'fbdev') continue;
    const device = u.output.device;
    if (!existsSync(device)) { warnings.push(`${device} is not on this machine: display sizes not checked against it`); continue; }
    const fb = probeFramebuffer(device);
    if ('error' in fb) { warnings.push(`${device}: ${fb.error}`); continue; }
    for (const id of u.displayIds) {
      const d = config.displayById.get(id)!;
      if (d.width > fb.width || d.height > fb.height) {
        faults.push({ path: pointer('displays', id, 'displayWidth'), message: `${d.width}x${d.height} is larger than ${device} (${fb.width}x${fb.height})` });
      }
    }
  }
  return { faults, warnings };
}
