import { MldsError } from '../../errors.js';
import { parseNetworkRequest } from '../../net/ethernet-request.js';
import { NETWORK, type NetworkControl } from '../../capability/network.js';
import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';

function network(api: ServiceApi): NetworkControl {
  const n = api.component(NETWORK);
  if (!n)
    throw new MldsError(
      'MLDS_NETWORK_UNAVAILABLE',
      'this unit cannot read or change its network configuration (the network capability needs Linux)',
    );
  return n;
}

export function ethernetRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/getethernetconfig', 'api', json(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    sendJson(ctx, await network(api).read());
  });

  routes.get('/setethernetconfig', 'admin', json(), async (ctx) => {
    const n = network(api);
    const ids = api.config().displays.length;
    if (ids !== 1) {
      const why = 'the network can be changed over HTTP only when exactly one display id is defined';
      throw new MldsError('MLDS_NOT_SINGLE_DISPLAY', `${why}; the configuration has ${ids}`);
    }
    const req = parseNetworkRequest(ctx.querystring);
    // HEAD checks the keys and the request, and changes nothing.
    if (ctx.method === 'HEAD') return void sendJson(ctx, { result: 'network change not made (HEAD)', ...req });
    const busy = n.busySeconds();
    if (busy !== undefined) ctx.set('Retry-After', String(busy));
    const { answer, apply } = await n.change(req);
    // Applied once this answer has left: the address may change under the connection.
    ctx.res.once('close', apply);
    ctx.set('Connection', 'close');
    sendJson(ctx, {
      result: 'network change accepted',
      ...req,
      ...answer,
      applying:
        'after this answer; the previous configuration returns when the gateway does not answer within rollbackSeconds',
    });
  });
}
