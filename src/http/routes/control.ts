import type { Router } from '@koa/router';
import type { ServiceApi } from '../api.js';
import { JSON_TYPE, runCommand } from '../fast-control.js';
import { json } from '../middleware.js';

/**
 * A plain GET /mlds is answered ahead of koa (fast-control.ts); what reaches the router here is
 * the rest: HEAD, other spellings (`/MLDS`, `/mlds/`), Accept headers to negotiate.
 */
export function controlRoutes(router: Router, api: ServiceApi): void {
  router.get('/mlds', json(), async (ctx) => {
    // The raw query: control decodes it itself, strictly (koa's parser would hide bad UTF-8).
    const { body, logged } = await runCommand(api, ctx.querystring);
    ctx.state.logged = logged;
    ctx.set('Content-Type', JSON_TYPE);
    ctx.body = body;
  });
}
