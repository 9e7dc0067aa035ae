import { MldsError } from '../../errors.js';
import { checkUrl } from '../../fetch/url-rules.js';
import { SHA256_HEX } from '../../util/sha256.js';
import { summary } from '../../config/diff.js';
import type { ReloadReport } from '../../config/diff.js';
import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';

function answer(r: ReloadReport, what: string) {
  return {
    result: r.changed ? `configuration ${what}` : 'configuration unchanged',
    added: r.added,
    changed: r.changedDisplays,
    removed: r.removed,
    unchanged: r.unchanged,
    summary: summary(r),
  };
}

export function configRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/reload_config', 'admin', json(), async (ctx) => {
    // HEAD checks the keys and reloads nothing.
    if (ctx.method === 'HEAD') return void sendJson(ctx, { result: 'configuration not reloaded (HEAD)' });
    sendJson(ctx, answer(await api.reload(), 'reloaded'));
  });
  routes.get('/load_config', 'admin', async (ctx) => {
    const url = ctx.query.url;
    if (url === undefined) {
      const { zip, filename } = await api.downloadConfig();
      ctx.type = 'application/zip';
      ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = zip;
      return;
    }
    if (typeof url !== 'string' || url === '')
      throw new MldsError(
        'MLDS_BAD_PARAMETER',
        '"url" must be given once: the URL of a zip archive of the configuration',
        'url',
      );
    const sha256 = ctx.query.sha256;
    if (sha256 !== undefined && (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)))
      throw new MldsError('MLDS_BAD_PARAMETER', '"sha256" must be given once, as 64 hexadecimal digits', 'sha256');
    if (!ctx.accepts('application/json'))
      throw new MldsError('MLDS_NOT_ACCEPTABLE', 'this endpoint answers with application/json');
    // HEAD checks the keys and the URL, and fetches nothing.
    if (ctx.method === 'HEAD')
      return void (
        checkUrl(url, api.config().urlPortRange),
        sendJson(ctx, { result: 'configuration not loaded (HEAD)' })
      );
    const r = await api.loadConfig(url, sha256);
    // Files the archive does not hold are gone from the service folder: say which, and where they went.
    sendJson(ctx, {
      ...answer(r, 'loaded'),
      backup: r.backup,
      removedFiles: r.removedFiles,
      ...(r.removedFilesNotListed ? { removedFilesNotListed: r.removedFilesNotListed } : {}),
    });
  });
}
