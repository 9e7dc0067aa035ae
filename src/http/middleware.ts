import type { Context, Next } from 'koa';
import { maskText, maskUrl } from '../control/credentials.js';
import { ERRORS, MldsError, type ErrorCode } from '../errors.js';
import type { ServiceApi } from './api.js';
import { isRefusal, type Refusals } from './refusals.js';
import { refusalLog } from '../log/refusal-log.js';
import { RateLimiter } from '../util/rate-limiter.js';

export interface HttpLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Answers `value` as JSON text. koa, given an object, tests it against the global Response,
 * which loads Node's fetch (undici) on first use: about 50 ms and 10 MB of RSS on the first
 * answer of a service that never fetches. A string skips those tests.
 */
export function sendJson(ctx: Context, value: object): void {
  if (!/\bjson\b/i.test(ctx.type)) ctx.type = 'json';
  ctx.body = JSON.stringify(value);
}

/** The Content-Type of every JSON answer, koa's and the servers' around it. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The body of every error answer: `{"result":"error","code","message"}` and any extra fields. */
export function errorBody(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): string {
  // A message may quote a value the client sent, and a key with it (`layout=l1;key=...`).
  return JSON.stringify({ result: 'error', code, message: maskText(message), ...extra });
}

export function sendError(ctx: Context, code: ErrorCode, message: string, extra: Record<string, unknown> = {}): void {
  ctx.status = ERRORS[code].status;
  // Every 503 is temporary (starting, swapping, a load under way): say when to come back.
  if (ctx.status === 503 && !ctx.response.get('Retry-After')) ctx.set('Retry-After', '2');
  ctx.state.errorCode = code;
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = errorBody(code, message, extra);
}

/** The code, message and extra fields an error thrown by a handler is answered with (MLDS_INTERNAL when unexpected). */
export function errorAnswer(
  err: unknown,
): { code: ErrorCode; message: string; extra: Record<string, unknown> } | undefined {
  if (!(err instanceof MldsError)) return undefined;
  return {
    code: err.code,
    message: maskText(err.message),
    extra: { ...(err.field !== undefined ? { field: err.field } : {}), ...(err.details ?? {}) },
  };
}

/**
 * Every error leaves as JSON with a code; anything unexpected is a 500 and a logged defect.
 * Refusals (404, 405...: refusals.ts) are logged as counts per client, not one line each.
 */
export function errors(log: HttpLog, refusals?: Refusals) {
  return async (ctx: Context, next: Next) => {
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        sendError(ctx, 'MLDS_NOT_FOUND', `no such path: ${maskUrl(ctx.path)}`);
    } catch (err) {
      const known = errorAnswer(err);
      if (known) {
        sendError(ctx, known.code, known.message, known.extra);
      } else {
        log.error({ err: (err as Error).stack ?? String(err), url: maskUrl(ctx.url) }, 'request failed');
        sendError(ctx, 'MLDS_INTERNAL', 'internal error; see the service log');
      }
    }
    if (refusals && !ctx.state.quiet && isRefusal(ctx.state.errorCode)) {
      ctx.state.quiet = true;
      refusals.logged(ctx.ip, ctx.status, `${ctx.method} ${maskUrl(ctx.url)}`);
    }
    // Headers (X-API-Key) are never logged; the URL's credentials are masked.
    if (!ctx.state.quiet)
      log.info(
        {
          method: ctx.method,
          url: maskUrl(ctx.url),
          status: ctx.status,
          ms: +(performance.now() - started).toFixed(2),
          ip: ctx.ip,
          ...(ctx.state.logged as object | undefined),
        },
        'request',
      );
  };
}

export function onlyGetAndHead() {
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      return sendError(ctx, 'MLDS_METHOD_NOT_ALLOWED', `${ctx.method} is not allowed; use GET`);
    }
    await next();
  };
}

/**
 * Fixed one-second windows per client address: enough to stop a runaway script without state
 * to tune. Refused requests are not logged one by one (refusals.ts).
 */
export function rateLimit(perSecond: () => number, log?: HttpLog, limiter = new RateLimiter(perSecond)) {
  const count = refusalLog(log, (ip, n) => [
    { ip, refused: n, limit: perSecond() },
    `rate limited: ${n} requests from ${ip}`,
  ]);
  return async (ctx: Context, next: Next) => {
    if (!limiter.take(ctx.ip)) {
      ctx.set('Retry-After', '1');
      ctx.state.quiet = true;
      count(ctx.ip);
      return sendError(ctx, 'MLDS_RATE_LIMITED', `more than ${perSecond()} requests per second from ${ctx.ip}`);
    }
    await next();
  };
}

export function whenReady(api: ServiceApi) {
  return async (ctx: Context, next: Next) => {
    if (!api.ready()) {
      ctx.set('Retry-After', '1');
      return sendError(ctx, 'MLDS_UNAVAILABLE', 'the service is starting or swapping its configuration; retry shortly');
    }
    await next();
  };
}

/** JSON endpoints refuse an Accept header that rules JSON out. */
export function json() {
  return async (ctx: Context, next: Next) => {
    if (!plainAccept(ctx.req.headers.accept) && !ctx.accepts('application/json')) {
      return sendError(ctx, 'MLDS_NOT_ACCEPTABLE', 'this endpoint answers with application/json');
    }
    await next();
  };
}

/** No Accept header, the wildcard curl sends or JSON itself: nothing to negotiate (every command passes here). */
export function plainAccept(accept: string | undefined): boolean {
  return !accept || accept === '*/*' || accept === 'application/json';
}
