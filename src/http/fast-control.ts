import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { maskUrl, queryKey } from '../control/credentials.js';
import { ERRORS } from '../errors.js';
import type { ServiceApi } from './api.js';
import { errorAnswer, plainAccept, type HttpLog } from './middleware.js';
import type { RateLimiter } from '../util/rate-limiter.js';
import { keyRefusal, type Access } from './access.js';

/** The control route (routes/control.ts); this fast path answers it with the same access. */
export const CONTROL_ROUTE = { path: '/mlds', access: 'api' } as const satisfies { path: string; access: Access };

/** What koa makes of `{ result: 'command received' }`: the answer to almost every command. */
const RECEIVED = JSON.stringify({ result: 'command received' });
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Applies a command and waits until it is stored (a 200 means the line is in the kernel, so
 * kill -9 loses nothing acknowledged); a command that cannot be stored rejects with 503
 * MLDS_STATE_UNWRITABLE. The answer's body and the request log line's facts; both paths to
 * /mlds answer through it.
 */
export async function runCommand(api: ServiceApi, query: string): Promise<{ body: string; logged: object }> {
  const result = await api.controller().apply(query, 'http');
  if (result.stored) await result.stored;
  return answered(result);
}

/** The answer to a command that passed (applied, or only checked for HEAD) and its log facts. */
export function answered(result: { displayId: string; layout: string; inumber?: string; ignored: string[] }): { body: string; logged: object } {
  const ignored = result.ignored.length ? result.ignored : undefined;
  return {
    body: ignored ? JSON.stringify({ result: 'command received', ignored }) : RECEIVED,
    logged: { id: result.displayId, layout: result.layout, inumber: result.inumber, ...(ignored ? { ignored } : {}) },
  };
}

interface FastDeps { api: ServiceApi; log: HttpLog; limiter: RateLimiter }
const fastPaths = new WeakMap<Koa, FastDeps>();

/** Lets requestListener() answer this app's plain GET /mlds itself (createApp). */
export function enableFastControl(app: Koa, deps: FastDeps): void {
  fastPaths.set(app, deps);
}

/**
 * The app's request listener: koa's, with a plain GET /mlds answered ahead of it. koa's
 * context, middleware chain and response handling cost about a third of a command
 * (~65 -> ~51 us of server CPU per command at one connection), so a command that
 * passes every check is answered here, exactly as koa answers it: the same readiness, key
 * and rate checks, status, headers, body and request log line (test/http/fast-control.test.ts
 * compares them). Anything else, and any request the checks would refuse, goes to koa.
 */
export function requestListener(app: Koa): RequestListener {
  const koa = app.callback();
  const deps = fastPaths.get(app);
  if (!deps) return koa;
  const { api, log, limiter } = deps;
  return (req, res) => {
    const started = performance.now();
    const url = req.url ?? '';
    const query = url === '/mlds' ? '' : url.startsWith('/mlds?') && !url.includes('#') ? url.slice(6) : undefined;
    if (query === undefined || req.method !== 'GET' || !api.ready() || !plainAccept(req.headers.accept)) return koa(req, res);
    const given = () => (req.headers['x-api-key'] as string | undefined) || queryKey(query);
    if (keyRefusal(api.config().security, CONTROL_ROUTE.access, given, () => false, CONTROL_ROUTE.path)) return koa(req, res);
    // koa counts it again, and answers 429: once over the limit, more counting changes nothing.
    const ip = req.socket.remoteAddress ?? '';
    if (!limiter.take(ip)) return koa(req, res);
    void command(api, log, req, res, url, query, ip, started);
  };
}

async function command(api: ServiceApi, log: HttpLog, req: IncomingMessage, res: ServerResponse, url: string, query: string, ip: string, started: number): Promise<void> {
  let status = 200;
  let body: string;
  let retryAfter = false;
  let logged: object | undefined;
  try {
    ({ body, logged } = await runCommand(api, query));
  } catch (err) {
    let known = errorAnswer(err);
    if (!known) {
      log.error({ err: (err as Error).stack ?? String(err), url: maskUrl(url) }, 'request failed');
      known = { code: 'MLDS_INTERNAL', message: 'internal error; see the service log', extra: {} };
    }
    status = ERRORS[known.code].status;
    retryAfter = status === 503;
    body = JSON.stringify({ result: 'error', code: known.code, message: known.message, ...known.extra });
  }
  // koa's headers, in koa's order (sendError sets Retry-After before the body).
  const headers = ['Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(body))];
  if (retryAfter) headers.unshift('Retry-After', '2');
  if (!res.destroyed) res.writeHead(status, headers).end(body);
  log.info({ method: req.method, url: maskUrl(url), status, ms: +(performance.now() - started).toFixed(2), ip, ...logged }, 'request');
}
