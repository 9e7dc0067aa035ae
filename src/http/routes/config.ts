import type { Router } from '@koa/router';
import type { ServiceApi } from '../api.js';
import { json } from '../middleware.js';

export function configRoutes(router: Router, api: ServiceApi): void {
  router.get('/reload_config', json(), async (ctx) => {
    const { changed } = await api.reload();
    ctx.body = { result: changed ? 'configuration reloaded' : 'configuration unchanged' };
  });
}
