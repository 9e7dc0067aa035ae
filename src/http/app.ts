import type { RequestListener } from 'node:http';
import Koa from 'koa';
import type * as KoaRouter from '@koa/router';
import type { ServiceApi } from './api.js';
import { errors, onlyGetAndHead, rateLimit, whenReady, type HttpLog } from './middleware.js';
import { RateLimiter } from '../util/rate-limiter.js';
import { earlyListener } from './early.js';
import { Refusals } from './refusals.js';
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
import { readoutRoutes } from './routes/readout.js';
import { updateRoutes } from './routes/update.js';
import { LiveViews } from './stream.js';
import { ViewTokens } from './view-tokens.js';
import { requireCjs } from '../util/require-cjs.js';
import { routeTable } from './access.js';

const { Router } = requireCjs('@koa/router') as typeof KoaRouter;

/** The HTTP application the servers (server.ts, https.ts) answer with. */
export interface HttpApp {
  /** Every route, behind the app's own checks. */
  readonly koa: Koa;
  /** koa's request listener, with the routes declared early taken ahead of its router (early.ts). */
  readonly listener: RequestListener;
  /** The refusals of the app and of the servers around it (404, 414, CONNECT...), counted together. */
  readonly refusals: Refusals;
}

export function createApp(
  api: ServiceApi,
  log: HttpLog,
  live = new LiveViews(),
  views = new ViewTokens(),
  shots = new Screenshots(),
): HttpApp {
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
  readoutRoutes(routes, api);
  updateRoutes(routes, api);
  const limiter = new RateLimiter(() => api.config().rateLimit);
  const refusals = new Refusals((ip) => limiter.take(ip), log);
  // Ahead of every route, in this order; the early listener runs the same list.
  const before = [
    errors(log, refusals),
    // Before the method check: a refused method counts against the client's rate too.
    rateLimit(() => api.config().rateLimit, log, limiter),
    onlyGetAndHead(),
    whenReady(api),
  ];
  for (const m of before) app.use(m);
  app.use(router.routes());
  return { koa: app, listener: earlyListener(app, before, routes.earlyRoute), refusals };
}
