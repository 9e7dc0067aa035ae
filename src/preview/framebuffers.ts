import { existsSync } from 'node:fs';
import type { ServiceConfig } from '../config/types.js';
import { pointer, type ConfigFault } from '../config/faults.js';
import { probeFramebuffer } from '../output/fbdev.js';

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
    if (!existsSync(device)) {
      warnings.push(`${device} is not on this machine: display sizes not checked against it`);
      continue;
    }
    const fb = probeFramebuffer(device);
    if ('error' in fb) {
      warnings.push(`${device}: ${fb.error}`);
      continue;
    }
    for (const id of u.displayIds) {
      const d = config.displayById.get(id)!;
      if (d.width > fb.width || d.height > fb.height) {
        faults.push({
          path: pointer('displays', id, 'displayWidth'),
          message: `${d.width}x${d.height} is larger than ${device} (${fb.width}x${fb.height})`,
        });
      }
    }
  }
  return { faults, warnings };
}
