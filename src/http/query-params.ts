// Query parameters as the API routes read them: each given at most once, and the display id a
// route acts on.
import type { Context } from 'koa';
import type { ServiceConfig } from '../config/types.js';
import { MldsError } from '../errors.js';

/** The parameter's value, undefined when absent; MLDS_BAD_PARAMETER when it is given twice. */
export function once(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  if (Array.isArray(v)) throw new MldsError('MLDS_BAD_PARAMETER', `"${name}" must be given once`, name);
  return v;
}

/** `id`, which must name a display of the configuration. */
export function displayIdOf(ctx: Context, config: ServiceConfig): string {
  const id = once(ctx, 'id');
  if (id === undefined || id === '') throw new MldsError('MLDS_MISSING_ID', '"id" is required', 'id');
  if (!config.displayById.has(id)) {
    throw new MldsError('MLDS_UNKNOWN_ID', `no display "${id}" in the configuration`, 'id');
  }
  return id;
}
