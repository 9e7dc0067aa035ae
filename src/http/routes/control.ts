import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import type { ClearCommand, Command } from '../../control/command.js';
import { answered, CONTROL_ROUTE, JSON_TYPE, runCommand } from '../fast-control.js';
import { json } from '../middleware.js';

/**
 * A plain GET /mlds is answered ahead of koa (fast-control.ts); what reaches the router here is
 * the rest: HEAD, other spellings (`/MLDS`, `/mlds/`), Accept headers to negotiate.
 */
/** What a validated message would be answered with (HEAD): a clear names no layout and ignores nothing. */
function checked(cmd: Command | ClearCommand): { displayId: string; layout: string; ignored: string[] } {
  return 'clear' in cmd ? { displayId: cmd.display.id, layout: '', ignored: [] } : { displayId: cmd.display.id, layout: cmd.layout.name, ignored: cmd.ignored };
}

export function controlRoutes(routes: Routes, api: ServiceApi): void {
  routes.get(CONTROL_ROUTE.path, CONTROL_ROUTE.access, json(), async (ctx) => {
    // The raw query: control decodes it itself, strictly (koa's parser would hide bad UTF-8).
    // HEAD changes nothing: the message is validated and answered as GET would answer it.
    const { body, logged } = ctx.method === 'HEAD' ? answered(checked(api.controller().validate(ctx.querystring))) : await runCommand(api, ctx.querystring);
    ctx.state.logged = logged;
    ctx.set('Content-Type', JSON_TYPE);
    ctx.body = body;
  });
}
