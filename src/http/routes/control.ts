import type { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ServiceApi } from '../api.js';
import { RECEIVED } from '../fast-control.js';
import { json } from '../middleware.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export function controlRoutes(router: Router, api: ServiceApi): void {
  router.get('/mlds', json(), control(api));
}

/**
 * `/mlds` spelled exactly so goes to its handler ahead of the router: every command passes
 * here, and the router's matching and the chain it builds per request cost more than the
 * rest of the answer (issue 13). The spellings the router also takes (`/MLDS`, `/mlds/`)
 * still reach the same handler through it. Placed after the error, rate, readiness and key checks.
 */
export function controlShortcut(api: ServiceApi): Middleware {
  const acceptable = json();
  const handle = control(api);
  return (ctx, next) => (ctx.path === '/mlds' && (ctx.method === 'GET' || ctx.method === 'HEAD') ? acceptable(ctx, () => handle(ctx)) : next());
}

function control(api: ServiceApi): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    // The raw query: control decodes it itself, strictly (koa's parser would hide bad UTF-8).
    const result = await api.controller().apply(ctx.querystring, 'http');
    // A 200 means the command is stored: in the kernel, so kill -9 loses nothing acknowledged.
    if (result.stored) await result.stored;
    const ignored = result.ignored.length ? result.ignored : undefined;
    ctx.state.logged = { id: result.displayId, layout: result.layout, inumber: result.inumber, ...(ignored ? { ignored } : {}) };
    if (ignored) {
      ctx.body = { result: 'command received', ignored };
    } else {
      ctx.set('Content-Type', JSON_TYPE);
      ctx.body = RECEIVED;
    }
  };
}
