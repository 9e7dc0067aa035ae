import type { Router } from '@koa/router';
import { MldsError } from '../../errors.js';
import { encodeFrame } from '../../render/encode.js';
import type { ServiceApi } from '../api.js';
import { liveSource, type LiveViews } from '../stream.js';

export function screenshotRoutes(router: Router, api: ServiceApi, live: LiveViews): void {
  router.get('/screenshot', (ctx) => {
    const config = api.config();
    const id = typeof ctx.query.id === 'string' && ctx.query.id !== '' ? ctx.query.id : config.displays[0].id;
    const display = config.displayById.get(id);
    if (!display) throw new MldsError('MLDS_UNKNOWN_ID', `no display "${id}" in the configuration`, 'id');
    if (ctx.query.stream === '1') {
      live.serve(ctx, id, liveSource(api, display));
      return;
    }
    const format = ctx.query.format ?? 'jpeg';
    if (format !== 'jpeg' && format !== 'png') throw new MldsError('MLDS_BAD_PARAMETER', '"format" must be jpeg or png', 'format');
    const frame = api.frame(id);
    if (!frame) throw new MldsError('MLDS_UNAVAILABLE', `display "${id}" has no frame yet`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = format === 'png' ? 'image/png' : 'image/jpeg';
    ctx.body = encodeFrame(frame, display.width, display.height, format);
  });
}
