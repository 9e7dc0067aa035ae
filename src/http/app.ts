import Koa from 'koa';
import type * as KoaRouter from '@koa/router';
import type { ServiceApi } from './api.js';
import { errors, onlyGetAndHead, rateLimit, whenReady, type HttpLog } from './middleware.js';
import { RateLimiter } from '../util/rate-limiter.js';
import { enableFastControl } from './fast-control.js';
import { attachRefusals, Refusals } from './refusals.js';
import { controlRoutes } from './routes/control.js';
import { statusRoutes } from './routes/status.js';
import { screenshotRoutes } from './routes/screenshot.js';
import { Screenshots } from './screenshots.js';
import { configRoutes } from './routes/config.js';
import { ethernetRoutes } from './routes/ethernet.js';
import { identifyRoutes } from './routes/identify.js';
import { blankRoutes, brightnessRoutes } from './routes/brightness.js';
import { historyRoutes } from './routes/history.js';
import { metricsRoutes } from './routes/metrics.js';
import { announceRoutes } from './routes/announce.js';
import { updateRoutes } from './routes/update.js';
import { LiveViews } from './stream.js';
import { ViewTokens } from './view-tokens.js';
import { requireCjs } from '../util/require-cjs.js';
import { routeTable } from './access.js';

const { Router } = requireCjs('@koa/router') as typeof KoaRouter;

export function createApp(api: ServiceApi, log: HttpLog, live: LiveViews = new LiveViews(), views: ViewTokens = new ViewTokens(), shots: Screenshots = new Screenshots()): Koa {
  const app = new Koa();
  // Behind no proxy on a display controller: the socket address is the client.
  app.proxy = false;
  // A live-view client that goes away is routine; anything else koa reports is worth a warning.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    log.warn({ err: err.message, code: err.code }, 'response failed');
  });
  const router = new Router();
  // Each route carries who may call it (access.ts): access is decided by the table that routes.
  const routes = routeTable(router, api, views);
  controlRoutes(routes, api);
  statusRoutes(routes, api, views);
  screenshotRoutes(routes, api, live, shots);
  configRoutes(routes, api);
  ethernetRoutes(routes, api);
  identifyRoutes(routes, api);
  brightnessRoutes(routes, api);
  blankRoutes(routes, api);
  historyRoutes(routes, api);
  metricsRoutes(routes, api);
  announceRoutes(routes, api);
  updateRoutes(routes, api);
  const limiter = new RateLimiter(() => api.config().rateLimit);
  const refusals = new Refusals((ip) => limiter.take(ip), log);
  attachRefusals(app, refusals);
  app.use(errors(log, refusals));
  // Before the method check: a refused method counts against the client's rate too.
  app.use(rateLimit(() => api.config().rateLimit, log, limiter));
  app.use(onlyGetAndHead());
  app.use(whenReady(api));
  app.use(router.routes());
  // A plain GET /mlds is answered ahead of koa (fast-control.ts), with the same checks.
  enableFastControl(app, { api, log, limiter });
  return app;
}
