import type { Router } from '@koa/router';
import type { ServiceApi } from '../api.js';
import { json } from '../middleware.js';

export function controlRoutes(router: Router, api: ServiceApi): void {
  router.get('/mlds', json(), async (ctx) => {
    // The raw query: control decodes it itself, strictly (koa's parser would hide bad UTF-8).
    const result = await api.controller().apply(ctx.querystring, 'http');
    ctx.state.logged = { id: result.displayId, layout: result.layout, inumber: result.inumber, ...(result.ignored.length ? { ignored: result.ignored } : {}) };
    ctx.body = { result: 'command received', ...(result.ignored.length ? { ignored: result.ignored } : {}) };
  });
}
