import { MldsError } from '../../errors.js';
import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import { Screenshots } from '../screenshots.js';
import { liveSource, type LiveViews } from '../stream.js';

export function screenshotRoutes(
  routes: Routes,
  api: ServiceApi,
  live: LiveViews,
  shots: Screenshots = new Screenshots(),
): void {
  routes.get('/screenshot', 'view', async (ctx) => {
    const config = api.config();
    // A repeated parameter is a fault, as on /mlds: `id=a&id=b` must not pick one silently.
    for (const name of ['id', 'stream', 'format']) {
      if (Array.isArray(ctx.query[name]))
        throw new MldsError('MLDS_BAD_PARAMETER', `"${name}" must be given once`, name);
    }
    const id = typeof ctx.query.id === 'string' && ctx.query.id !== '' ? ctx.query.id : config.displays[0].id;
    const display = config.displayById.get(id);
    if (!display) throw new MldsError('MLDS_UNKNOWN_ID', `no display "${id}" in the configuration`, 'id');
    if (ctx.query.stream === '1') {
      live.serve(ctx, id, liveSource(api, display));
      return;
    }
    const format = ctx.query.format ?? 'jpeg';
    if (format !== 'jpeg' && format !== 'png')
      throw new MldsError('MLDS_BAD_PARAMETER', '"format" must be jpeg or png', 'format');
    ctx.set('Cache-Control', 'no-store');
    try {
      const image = await shots.get({
        displayId: id,
        width: display.width,
        height: display.height,
        format,
        latest: () => api.frame(id),
      });
      ctx.type = format === 'png' ? 'image/png' : 'image/jpeg';
      ctx.body = image;
    } catch (err) {
      // No frame yet, or too many encodes waiting: both pass soon.
      if (err instanceof MldsError && err.code === 'MLDS_UNAVAILABLE') ctx.set('Retry-After', '1');
      throw err;
    }
  });
}
