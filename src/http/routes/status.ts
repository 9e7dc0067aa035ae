import type { Context } from 'koa';
import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';
import { MldsError } from '../../errors.js';
import type { ViewTokens } from '../view-tokens.js';

/** `refresh` seconds for /info's own updates: a wall display may want them slower, a test faster. */
const REFRESH_MIN_S = 0.2;
const REFRESH_MAX_S = 3600;

function refreshMs(ctx: Context): number | undefined {
  const raw = ctx.query.refresh;
  if (raw === undefined) return undefined;
  const s = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(s >= REFRESH_MIN_S && s <= REFRESH_MAX_S)) {
    throw new MldsError(
      'MLDS_BAD_PARAMETER',
      `"refresh" must be a number of seconds from ${REFRESH_MIN_S} to ${REFRESH_MAX_S}`,
      'refresh',
    );
  }
  return s * 1000;
}

export function statusRoutes(routes: Routes, api: ServiceApi, views?: ViewTokens): void {
  routes.get('/status', 'api', json(), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    sendJson(ctx, api.status());
  });
  routes.get('/info', 'api', async (ctx) => {
    const refresh = refreshMs(ctx);
    // The page's thirteen modules load with the first /info, not at start.
    const { renderInfoPage } = await import('../info/page.js');
    ctx.set('Cache-Control', 'no-store');
    // The page's live pictures need the API key; instead of writing the caller's key into the
    // page, a short-lived cookie that opens only /screenshot goes with it. Each of the page's
    // refreshes renews it.
    if (views && api.config().security?.apiKey) ctx.append('Set-Cookie', views.cookie(views.issue()));
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderInfoPage(api.status(), { refreshMs: refresh });
  });
}
