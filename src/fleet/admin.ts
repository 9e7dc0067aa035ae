// Admin commands, taken only from `<prefix>/<unit>/admin` (never from a group or the fleet):
//   reload_config                  or {"cmd":"reload_config"}
//   identify                       or {"cmd":"identify","seconds":30}  (0 ends it)
// The answer goes to the unit's confirm topic as {"cmd","confirm","code","message"}.
import { BOOT_COMPONENT, MAX_IDENTIFY_S, type BootScreens } from '../boot/boot-screens.js';
import { MldsError } from '../errors.js';
import type { RuntimeContext } from '../capability/component-contract.js';
import { MAX_PAYLOAD } from './payload.js';

export interface AdminReply { cmd: string | null; confirm: 1 | 2; code: string | null; message: string }

const DEFAULT_IDENTIFY_S = 30;

export async function runAdmin(payload: Buffer, ctx: RuntimeContext): Promise<AdminReply> {
  if (payload.length > MAX_PAYLOAD) return refused(null, 'MLDS_MQTT_TOO_LARGE', `the payload is ${payload.length} bytes; at most ${MAX_PAYLOAD} are taken`);
  const text = payload.toString('utf8').trim();
  let cmd: unknown = text;
  let seconds: unknown;
  if (text.startsWith('{')) {
    try {
      const o = JSON.parse(text) as Record<string, unknown>;
      cmd = o?.cmd;
      seconds = o?.seconds;
    } catch (err) { return refused(null, 'MLDS_MQTT_PAYLOAD', `the payload is not JSON: ${(err as Error).message}`); }
  }
  if (cmd === 'reload_config') {
    try {
      const r = await ctx.reload();
      ctx.log.info({ changed: r.changed }, 'mqtt: reload_config');
      return { cmd, confirm: 1, code: null, message: r.changed ? 'configuration reloaded' : 'configuration unchanged' };
    } catch (err) {
      return refused(cmd, err instanceof MldsError ? err.code : 'MLDS_INTERNAL', (err as Error).message);
    }
  }
  if (cmd === 'identify') {
    const s = seconds === undefined ? DEFAULT_IDENTIFY_S : seconds;
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > MAX_IDENTIFY_S) return refused(cmd, 'MLDS_MQTT_PAYLOAD', `"seconds" must be a whole number from 0 to ${MAX_IDENTIFY_S}`);
    const boot = ctx.component<BootScreens>(BOOT_COMPONENT);
    if (!boot) return refused(cmd, 'MLDS_UNAVAILABLE', 'the info screen is not running');
    const units = boot.identify(s);
    return { cmd, confirm: 1, code: null, message: `info screen on ${units.length} unit(s) for ${s} s` };
  }
  return refused(typeof cmd === 'string' ? cmd.slice(0, 64) : null, 'MLDS_MQTT_PAYLOAD', 'unknown admin command; known: reload_config, identify');
}

function refused(cmd: string | null, code: string, message: string): AdminReply {
  return { cmd, confirm: 2, code, message };
}
