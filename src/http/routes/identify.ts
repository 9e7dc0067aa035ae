import { BOOT, MAX_IDENTIFY_S } from '../../capability/boot.js';
import { MldsError } from '../../errors.js';
import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';

/** Default when `seconds` is not given: long enough to walk along a row of panels. */
const DEFAULT_IDENTIFY_S = 30;

/**
 * GET /identify?seconds=N[&id=<display>]: the info screen on every unit (or the one showing
 * `id`) for N seconds, so a technician sees which controller drives which panel; 0 ends it.
 */
export function identifyRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/identify', 'admin', json(), (ctx) => {
    const raw = ctx.query.seconds;
    if (Array.isArray(raw)) throw new MldsError('MLDS_BAD_PARAMETER', '"seconds" must be given once', 'seconds');
    const seconds = raw === undefined || raw === '' ? DEFAULT_IDENTIFY_S : /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
    if (!(seconds >= 0 && seconds <= MAX_IDENTIFY_S))
      throw new MldsError(
        'MLDS_BAD_PARAMETER',
        `"seconds" must be a whole number of seconds from 0 to ${MAX_IDENTIFY_S}`,
        'seconds',
      );
    const id = ctx.query.id;
    if (Array.isArray(id)) throw new MldsError('MLDS_BAD_PARAMETER', '"id" must be given once', 'id');
    if (id !== undefined && !api.config().displayById.has(id))
      throw new MldsError('MLDS_UNKNOWN_ID', `no display "${id}" in the configuration`, 'id');
    const boot = api.component(BOOT);
    if (!boot) throw new MldsError('MLDS_UNAVAILABLE', 'the info screen is not running yet');
    // HEAD checks the keys and the parameters, and shows nothing.
    if (ctx.method === 'HEAD') return void sendJson(ctx, { seconds });
    sendJson(ctx, { seconds, units: boot.identify(seconds, id) });
  });
}
