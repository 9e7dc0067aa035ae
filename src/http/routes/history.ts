// GET /history?id=<display>[&since=<ISO time>][&limit=N]: what the display's areas showed,
// newest first, from shown.log. Read-only, API key level.
import type { Routes } from '../access.js';
import { MldsError } from '../../errors.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';
import { displayIdOf, once } from '../query-params.js';

export const HISTORY_DEFAULT_LIMIT = 100;
export const HISTORY_MAX_LIMIT = 1000;

export function historyRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/history', 'api', json(), async (ctx) => {
    const id = displayIdOf(ctx, api.config());
    const rawSince = once(ctx, 'since');
    // ISO 8601 with a date and a time; Date.parse alone would take "1" or "May 5".
    const since =
      rawSince === undefined ? undefined : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(rawSince) ? Date.parse(rawSince) : NaN;
    if (since !== undefined && Number.isNaN(since))
      throw new MldsError(
        'MLDS_BAD_PARAMETER',
        '"since" must be an ISO 8601 time such as 2026-11-24T13:00:00Z',
        'since',
      );
    const rawLimit = once(ctx, 'limit');
    const limit = rawLimit === undefined ? HISTORY_DEFAULT_LIMIT : /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= HISTORY_MAX_LIMIT))
      throw new MldsError(
        'MLDS_BAD_PARAMETER',
        `"limit" must be a whole number from 1 to ${HISTORY_MAX_LIMIT}`,
        'limit',
      );
    ctx.set('Cache-Control', 'no-store');
    if (!api.history) {
      sendJson(ctx, {
        id,
        entries: [],
        complete: true,
        recorded: false,
        message: 'the service runs without a log folder: shown.log is not kept',
      });
      return;
    }
    const { entries, complete } = await api.history(id, since, limit);
    sendJson(ctx, { id, entries, complete, recorded: true });
  });
}
