import type { Router } from '@koa/router';
import type { ServiceApi } from '../api.js';
import { json } from '../middleware.js';
import { renderInfoPage } from '../info-page.js';
import type { ViewTokens } from '../view-tokens.js';

export function statusRoutes(router: Router, api: ServiceApi, _views?: ViewTokens): void {
  router.get('/status', json(), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = api.status();
  });
  router.get('/info', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderInfoPage(api.status(), typeof ctx.query.key === 'string' ? ctx.query.key : undefined);
  });
}
