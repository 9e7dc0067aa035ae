// GET /brightness/<value>[?id=<MAIN id>]: a manual brightness for one physical unit (through its
// MAIN display) or for every unit whose MAIN display has sensorBrightness true. It holds until
// the next restart or until a reload turns sensorBrightness off (docs/decisions.md).
import { BRIGHTNESS } from '../../capability/brightness.js';
import { MldsError } from '../../errors.js';
import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';

/** The specification's manual range: an integer 1..100 (written as plain digits). */
export function manualValue(raw: string | undefined): number {
  const v = raw !== undefined && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(v >= 1 && v <= 100)) {
    throw new MldsError(
      'MLDS_BAD_BRIGHTNESS',
      raw === undefined || raw === ''
        ? 'the brightness is missing: /brightness/<value> with an integer 1..100'
        : `the brightness must be an integer 1..100, not ${JSON.stringify(raw.slice(0, 20))}`,
      'value',
    );
  }
  return v;
}

/** The MAIN ids the request sets: the one named by `id`, or every unit with sensorBrightness true. */
function targets(api: ServiceApi, id: string | string[] | undefined): string[] {
  const config = api.config();
  if (Array.isArray(id))
    throw new MldsError(
      'MLDS_REPEATED_ID',
      '"id" appears more than once; give one MAIN display id, or none for every unit',
      'id',
    );
  if (id === undefined) {
    const all = config.units
      .map((u) => config.displayById.get(u.displayIds[0])!)
      .filter((d) => d.sensorBrightness)
      .map((d) => d.id);
    if (all.length === 0)
      throw new MldsError(
        'MLDS_BRIGHTNESS_DISABLED',
        'no unit has sensorBrightness true on its MAIN display: every brightness follows its schedule or brightnessUrl',
        'sensorBrightness',
      );
    return all;
  }
  if (id === '')
    throw new MldsError(
      'MLDS_MISSING_ID',
      '"id" is empty: give a MAIN display id, or leave "id" out for every unit',
      'id',
    );
  const d = config.displayById.get(id);
  if (!d) throw new MldsError('MLDS_UNKNOWN_ID', `"${id.slice(0, 255)}" names no display`, 'id');
  const unit = config.units.find((u) => u.key === d.unit)!;
  if (unit.displayIds[0] !== id) {
    throw new MldsError(
      'MLDS_NOT_UNIT_MAIN',
      `"${id}" is not the MAIN display of its unit: brightness is set per physical unit through its MAIN id ` +
        `"${unit.displayIds[0]}"`,
      'id',
    );
  }
  if (!d.sensorBrightness)
    throw new MldsError(
      'MLDS_BRIGHTNESS_DISABLED',
      `"${id}" has sensorBrightness false: its brightness follows the schedule or brightnessUrl`,
      'id',
    );
  return [id];
}

export function brightnessRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/brightness', 'api', json(), () => {
    manualValue(undefined);
  });
  routes.get('/brightness/:value', 'api', json(), async (ctx) => {
    const value = manualValue(ctx.params.value);
    const ids = targets(api, ctx.query.id);
    const brightness = api.component(BRIGHTNESS);
    if (!brightness) throw new MldsError('MLDS_UNAVAILABLE', 'brightness control is not running (see the service log)');
    // HEAD checks the value and the display, and sets nothing.
    if (ctx.method !== 'HEAD') await brightness.setManual(ids, value);
    sendJson(ctx, {
      result: 'brightness set',
      value,
      set: ids,
      units: brightness
        .status()
        .units.map((u) => ({ id: u.id, brightness: u.brightness, mode: u.mode, source: u.source })),
    });
  });
}

/** The MAIN ids of the physical units `id` names (the unit of any of its displays), or of every unit without it. */
function unitsOf(api: ServiceApi, id: string | string[] | undefined): string[] {
  const config = api.config();
  if (Array.isArray(id))
    throw new MldsError(
      'MLDS_REPEATED_ID',
      '"id" appears more than once; give one display id, or none for every unit',
      'id',
    );
  if (id === undefined) return config.units.map((u) => u.displayIds[0]);
  const d = config.displayById.get(id);
  if (!d)
    throw new MldsError(
      id === '' ? 'MLDS_MISSING_ID' : 'MLDS_UNKNOWN_ID',
      id === ''
        ? '"id" is empty: give a display id, or leave "id" out for every unit'
        : `"${id.slice(0, 255)}" names no display`,
      'id',
    );
  return [config.units.find((u) => u.key === d.unit)!.displayIds[0]];
}

// GET /blank[?id=] and /unblank[?id=]: the panel of the display's unit dark (or lit again), its
// content and commands going on; every unit without `id`. Until unblanked or the service restarts.
export function blankRoutes(routes: Routes, api: ServiceApi): void {
  for (const blank of [true, false]) {
    routes.get(blank ? '/blank' : '/unblank', 'api', json(), async (ctx) => {
      const ids = unitsOf(api, ctx.query.id);
      const brightness = api.component(BRIGHTNESS);
      if (!brightness)
        throw new MldsError('MLDS_UNAVAILABLE', 'brightness control is not running (see the service log)');
      // HEAD checks the display and changes nothing.
      if (ctx.method !== 'HEAD') await brightness.setBlank(ids, blank);
      sendJson(ctx, {
        result: ctx.method === 'HEAD' ? 'nothing changed (HEAD)' : blank ? 'blanked' : 'unblanked',
        units: ids,
        blanked: brightness
          .status()
          .units.filter((u) => u.blanked)
          .map((u) => u.id),
      });
    });
  }
}
