// What each admin command does (admin.ts parses, checks the key and answers):
//   reload_config                        config.json read again
//   identify      {seconds?: 0..3600}    the info screen (0 ends it)
//   load_config   {url, sha256}          as GET /load_config?url=&sha256=
//   brightness    {value: 0..100|"auto", id?}   a level until "auto" (any unit; sensorBrightness not needed)
//   blank         {id?} / unblank {id?}  the panel dark / lit; content and commands go on
//   screenshot    {id}                   a JPEG on <prefix>/<unit>/screenshot/<id>, not retained
//   status                               the whole /status document in the result
//   restart / reboot                     the service / the controller, once the result is out
//   update        {url, sha256}          an A/B update through RAUC (refused where RAUC is absent)
// `id` names any display; brightness and blanking act on its physical unit (all units without it).
import { BOOT, MAX_IDENTIFY_S } from '../capability/boot.js';
import { BRIGHTNESS, type BrightnessControl } from '../capability/brightness.js';
import type { RuntimeContext } from '../capability/component-contract.js';
import { rebootController, restartService } from '../device/power.js';
import { MldsError } from '../errors.js';
import { ScreenshotEncoder } from '../render/encoder.js';
import { SHA256_HEX } from '../util/sha256.js';
import { UPDATE, updaterOf, type UpdateStep } from '../capability/update-status.js';

export interface AdminIo {
  /** A step of a long command, told on the result topic before its result (`facts` ride along: an update's percent). */
  progress(message: string, facts?: Record<string, unknown>): void;
  /** Publishes once, not retained (a screenshot). */
  publish(topic: string, payload: Buffer): void;
  screenshotTopic(displayId: string): string;
  /** Runs after the result was acknowledged by the broker (restart, reboot). */
  afterReply(fn: () => void | Promise<void>): void;
}

export type AdminFields = Record<string, unknown>;
export type AdminCommand = (
  f: AdminFields,
  ctx: RuntimeContext,
  io: AdminIo,
) => Promise<{ message: string; [fact: string]: unknown }>;

const DEFAULT_IDENTIFY_S = 30;

/**
 * Screenshots are encoded in a worker thread, as /screenshot's are, into a canvas it keeps: on
 * the event loop each 1080p one was a new 8 MB canvas filled there, and ten a second took RSS up
 * 80 MB before V8 collected them. The worker starts with the first and ends when idle.
 */
const shots = new ScreenshotEncoder();

/**
 * An update's steps on the result topic: each new state, and each 10 % within one (a 300 MB download is not 1,200
 * messages).
 */
function progressEvery10(io: AdminIo): (s: UpdateStep) => void {
  let state = '';
  let tenth = -1;
  return (s) => {
    const t = s.percent === null ? -1 : Math.floor(s.percent / 10);
    if (s.state === state && t <= tenth) return;
    state = s.state;
    tenth = t;
    io.progress(s.state, { percent: s.percent, message: s.message });
  };
}

const bad = (field: string, message: string) => new MldsError('MLDS_MQTT_PAYLOAD', message, field);

function stringField(f: AdminFields, name: string, what: string): string {
  const v = f[name];
  if (typeof v !== 'string' || v === '') throw bad(name, `"${name}" must be ${what}`);
  return v;
}

function digestField(f: AdminFields): string {
  const v = stringField(f, 'sha256', 'the SHA-256 of the download, 64 hexadecimal digits');
  if (!SHA256_HEX.test(v)) throw bad('sha256', '"sha256" must be 64 hexadecimal digits');
  return v;
}

/** The MAIN ids of the units `id` names (its unit), or of every unit without `id`. */
function unitMains(f: AdminFields, ctx: RuntimeContext): string[] {
  const config = ctx.config();
  if (f.id === undefined) return config.units.map((u) => u.displayIds[0]);
  const d = typeof f.id === 'string' ? config.displayById.get(f.id) : undefined;
  if (!d)
    throw new MldsError(
      'MLDS_UNKNOWN_ID',
      `"id" names no display of this unit: ${JSON.stringify(f.id).slice(0, 80)}`,
      'id',
    );
  return [config.units.find((u) => u.key === d.unit)!.displayIds[0]];
}

function brightnessOf(ctx: RuntimeContext): BrightnessControl {
  const b = ctx.component(BRIGHTNESS);
  if (!b) throw new MldsError('MLDS_UNAVAILABLE', 'brightness control is not running (see the service log)');
  return b;
}

const blanking =
  (blank: boolean): AdminCommand =>
  async (f, ctx) => {
    const mains = unitMains(f, ctx);
    await brightnessOf(ctx).setBlank(mains, blank);
    return {
      message:
        `${mains.length} unit(s) ` +
        `${blank ? 'blanked: the panel is dark, content and commands go on' : 'unblanked'}`,
      units: mains,
    };
  };

export const ADMIN_COMMANDS: Record<string, AdminCommand> = {
  async reload_config(_f, ctx) {
    const r = await ctx.reload();
    return {
      message: r.changed ? 'configuration reloaded' : 'configuration unchanged',
      generation: ctx.status().config.generation,
    };
  },
  async identify(f, ctx) {
    const s = f.seconds === undefined ? DEFAULT_IDENTIFY_S : f.seconds;
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > MAX_IDENTIFY_S)
      throw bad('seconds', `"seconds" must be a whole number from 0 to ${MAX_IDENTIFY_S}`);
    const boot = ctx.component(BOOT);
    if (!boot) throw new MldsError('MLDS_UNAVAILABLE', 'the info screen is not running');
    return { message: `info screen on ${boot.identify(s).length} unit(s) for ${s} s` };
  },
  async load_config(f, ctx, io) {
    const url = stringField(f, 'url', 'the URL of a zip archive of the configuration');
    const sha256 = digestField(f);
    io.progress('downloading');
    const r = await ctx.loadConfig(url, sha256);
    const generation = ctx.status().config.generation;
    return {
      message: `configuration ${r.changed ? 'loaded' : 'unchanged'}: generation ${generation}`,
      generation,
      changed: r.changedDisplays,
      added: r.added,
      removed: r.removed,
    };
  },
  async brightness(f, ctx) {
    const v = f.value;
    if (v !== 'auto' && !(typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 100))
      throw bad('value', '"value" must be a whole number from 0 to 100, or "auto"');
    const mains = unitMains(f, ctx);
    await brightnessOf(ctx).setFleetLevel(mains, v === 'auto' ? undefined : v);
    return {
      message:
        v === 'auto'
          ? `${mains.length} unit(s) follow their brightness sources again`
          : `${mains.length} unit(s) at ${v} % until "auto"`,
      units: mains,
    };
  },
  blank: blanking(true),
  unblank: blanking(false),
  async screenshot(f, ctx, io) {
    const id = stringField(f, 'id', 'a display id');
    const display = ctx.config().displayById.get(id);
    if (!display)
      throw new MldsError(
        'MLDS_UNKNOWN_ID',
        `"id" names no display of this unit: ${JSON.stringify(id).slice(0, 80)}`,
        'id',
      );
    const frame = ctx.unitFor(id)?.latest();
    if (!frame) throw new MldsError('MLDS_UNAVAILABLE', `display "${id}" has no frame yet`);
    const jpeg = await shots.encode(frame, display.width, display.height, 'jpeg');
    const topic = io.screenshotTopic(id);
    io.publish(topic, jpeg);
    return { message: `a JPEG of ${display.width}x${display.height} on ${topic}`, topic, bytes: jpeg.length };
  },
  async status(_f, ctx) {
    return { message: 'the status now', status: ctx.status() };
  },
  async restart(_f, _ctx, io) {
    io.afterReply(() => restartService());
    return { message: 'the service restarts now' };
  },
  async reboot(_f, ctx, io) {
    io.afterReply(() => rebootController().catch((err: Error) => ctx.log.error({ err: err.message }, 'reboot failed')));
    return { message: 'the controller reboots now' };
  },
  async update(f, ctx, io) {
    const url = stringField(f, 'url', 'the URL of a RAUC bundle');
    const sha256 = digestField(f);
    const updater = updaterOf(ctx.component(UPDATE));
    const r = await updater.update(url, sha256, progressEvery10(io));
    io.afterReply(() => updater.reboot());
    return { message: r.message, slot: r.slot, version: r.version ?? null };
  },
};
