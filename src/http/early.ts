import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';

/**
 * The request listener of an app: koa's, with a request for exactly the path of a route declared
 * early (access.ts; /mlds) answered ahead of koa's router. Such a request runs the very
 * middleware koa would run for it, in the same order, on koa's own context: the app's `before`
 * (the error answer and request log line, the rate limit, the method, readiness), then the
 * route's (its access check from the route table, its own checks, its handler). What is left
 * out is koa's routing of the path, its composition and its response machinery (stream bodies,
 * finish listeners): docs/performance.md gives what that saves against a whole command.
 * Other spellings of the path (`/MLDS`, `/mlds/`) reach the same route through koa.
 */
export function earlyListener(
  app: Koa,
  before: readonly Middleware[],
  route: (path: string) => readonly Middleware[] | undefined,
): RequestListener {
  const koa = app.callback();
  const chains = new Map<string, readonly Middleware[]>();
  const chainOf = (path: string) => {
    let chain = chains.get(path);
    if (!chain) {
      const own = route(path);
      if (own) chains.set(path, (chain = [...before, ...own]));
    }
    return chain;
  };
  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const chain = chainOf(q < 0 ? url : url.slice(0, q));
    if (!chain) return koa(req, res);
    const ctx = app.createContext(req, res);
    // As koa: a request no middleware answers is a 404.
    res.statusCode = 404;
    run(chain, 0, ctx)
      .then(() => send(ctx))
      .catch((err: Error) => ctx.onerror(err));
  };
}

function run(chain: readonly Middleware[], i: number, ctx: Context): Promise<void> {
  if (i === chain.length) return Promise.resolve();
  return Promise.resolve(chain[i](ctx, () => run(chain, i + 1, ctx)));
}

/** Sends what the middleware left on the context, as koa's respond() sends a string body. */
function send(ctx: Context): void {
  if (!ctx.writable) return;
  const body: unknown = ctx.body;
  if (typeof body !== 'string') throw new Error(`an early route left no string body (${typeof body})`);
  ctx.res.end(ctx.method === 'HEAD' ? undefined : body);
}
