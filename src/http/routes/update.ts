// GET /update?url=<bundle URL>&sha256=<64 hex digits> (admin key): an A/B software update
// through RAUC (docs/fleet.md). Answers once the bundle is installed into the other slot, then
// the unit reboots into it; meanwhile /status `components.update` shows the progress. HEAD
// checks the keys, the parameters and the URL, and does nothing.
import { UPDATE, updaterOf } from '../../capability/update-status.js';
import { MldsError } from '../../errors.js';
import { checkUrl } from '../../fetch/url-rules.js';
import { SHA256_HEX } from '../../util/sha256.js';
import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';

export function updateRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/update', 'admin', json(), async (ctx) => {
    const { url, sha256 } = ctx.query;
    if (typeof url !== 'string' || url === '')
      throw new MldsError('MLDS_BAD_PARAMETER', '"url" must be given once: the URL of a RAUC bundle', 'url');
    if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256))
      throw new MldsError(
        'MLDS_BAD_PARAMETER',
        '"sha256" must be given once, as 64 hexadecimal digits: the SHA-256 of the bundle',
        'sha256',
      );
    checkUrl(url, api.config().urlPortRange);
    const updater = updaterOf(api.component(UPDATE));
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method === 'HEAD') return void sendJson(ctx, { result: 'not updated (HEAD)' });
    // A bundle of a few hundred MB takes minutes: the answer is silent until then, which the idle timeout must not end.
    ctx.req.socket.setTimeout(0);
    const r = await updater.update(url, sha256);
    // The reboot waits for the answer to leave, or not at all when the client has gone.
    const reboot = () => void updater.reboot();
    if (ctx.res.destroyed || ctx.req.socket.destroyed) reboot();
    else ctx.res.once('close', reboot);
    sendJson(ctx, { result: 'installed; rebooting', message: r.message, slot: r.slot, version: r.version ?? null });
  });
}
