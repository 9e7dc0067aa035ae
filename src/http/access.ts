import type { Context, Middleware, Next } from 'koa';
import type { Router, RouterMiddleware } from '@koa/router';
import { queryKey, sameKey } from '../control/credentials.js';
import type { ServiceConfig } from '../config/types.js';
import type { ErrorCode } from '../errors.js';
import type { ServiceApi } from './api.js';
import { sendError } from './middleware.js';
import { VIEW_COOKIE, type ViewTokens } from './view-tokens.js';

/**
 * Who may call a route (docs/security.md), carried by the route itself: the router matches
 * paths case-insensitively and with a trailing slash, so any check by path string beside it
 * would miss a spelling (`/LOAD_CONFIG`, `/load_config/`) that the router still serves.
 * - `api`: the API key when `security.apiKey` is set (the admin key opens it too);
 * - `admin`: the admin key when `security.adminKey` is set, else as `api`;
 * - `view`: as `api`, or a view token cookie issued with /info (the live pictures only).
 */
export type Access = 'api' | 'admin' | 'view';

/** The one way routes are declared: a path, who may call it, its handlers. */
export interface Routes {
  /** Not a koa Router: its get(name, path, ...) would take an access level for a path. */
  readonly table: true;
  get(path: string, access: Access, ...handlers: RouterMiddleware[]): void;
  /**
   * As get(), and a request for exactly `path` is also answered ahead of koa's router by the
   * same middleware (early.ts). Its handlers answer with a string body and use no route params.
   */
  early(path: string, access: Access, ...handlers: Middleware[]): void;
  /** The middleware of the route declared early for exactly `path`, its access check first. */
  earlyRoute(path: string): readonly Middleware[] | undefined;
}

/** A route table over `router` whose every route checks its own access first. */
export function routeTable(router: Router, api: ServiceApi, views?: ViewTokens): Routes {
  const early = new Map<string, readonly Middleware[]>();
  return {
    table: true,
    get(path, access, ...handlers) {
      router.get(path, guard(path, access, api, views), ...handlers);
    },
    early(path, access, ...handlers) {
      const route = [guard(path, access, api, views), ...handlers];
      router.get(path, ...route);
      early.set(path, route);
    },
    earlyRoute: (path) => early.get(path),
  };
}

function guard(path: string, access: Access, api: ServiceApi, views: ViewTokens | undefined): Middleware {
  return async (ctx: Context, next: Next) => {
    const given = () => ctx.get('X-API-Key') || queryKey(ctx.querystring);
    const viewing = () => access === 'view' && !!views && views.check(ctx.cookies.get(VIEW_COOKIE));
    const refused = keyRefusal(api.config().security, access, given, viewing, path);
    if (refused) return sendError(ctx, refused[0], refused[1]);
    await next();
  };
}

/** Why a request to a route of `access` carrying the key `given()` is refused, or undefined when it may pass. */
export function keyRefusal(
  sec: ServiceConfig['security'],
  access: Access,
  given: () => string,
  viewing: () => boolean,
  path: string,
): [ErrorCode, string] | undefined {
  if (!sec || !(sec.apiKey || sec.adminKey)) return undefined;
  const key = given();
  const isAdmin = sameKey(key, sec.adminKey);
  if (access === 'admin' && sec.adminKey && !isAdmin) return ['MLDS_FORBIDDEN', `${path} needs the admin key`];
  if (sec.apiKey && !isAdmin && !sameKey(key, sec.apiKey) && !viewing()) {
    return [
      'MLDS_UNAUTHORIZED',
      key ? 'the API key is wrong' : 'an API key is required (key query value or X-API-Key header)',
    ];
  }
  return undefined;
}
