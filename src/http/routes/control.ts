import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';
import type { ClearCommand, Command } from '../../control/command.js';
import { json, JSON_TYPE } from '../middleware.js';

/** What koa makes of `{ result: 'command received' }`: the answer to almost every command. */
const RECEIVED = JSON.stringify({ result: 'command received' });

interface Outcome {
  displayId: string;
  layout: string;
  inumber?: string;
  ignored: string[];
}

/** The answer to a command that passed (applied, or only checked for HEAD) and its log line's facts. */
function answered(result: Outcome): { body: string; logged: object } {
  const ignored = result.ignored.length ? result.ignored : undefined;
  return {
    body: ignored ? JSON.stringify({ result: 'command received', ignored }) : RECEIVED,
    logged: { id: result.displayId, layout: result.layout, inumber: result.inumber, ...(ignored ? { ignored } : {}) },
  };
}

/** What a validated message would be answered with (HEAD): a clear names no layout and ignores nothing. */
function checked(cmd: Command | ClearCommand): Outcome {
  if ('clear' in cmd) return { displayId: cmd.display.id, layout: '', ignored: [] };
  return { displayId: cmd.display.id, layout: cmd.layout.name, ignored: cmd.ignored };
}

/**
 * Applies a command once it is stored: a 200 means the line is in the kernel, so kill -9 loses
 * nothing acknowledged; a command that cannot be stored rejects with 503 MLDS_STATE_UNWRITABLE.
 */
async function applied(api: ServiceApi, query: string): Promise<Outcome> {
  const result = await api.controller().apply(query, 'http');
  if (result.stored) await result.stored;
  return result;
}

/**
 * The control route. Declared early: a request for exactly `/mlds` runs it, behind the app's
 * checks, ahead of koa's router (early.ts); other spellings (`/MLDS`, `/mlds/`) through it.
 */
export function controlRoutes(routes: Routes, api: ServiceApi): void {
  routes.early('/mlds', 'api', json(), async (ctx) => {
    // The raw query: control decodes it itself, strictly (koa's parser would hide bad UTF-8).
    // HEAD changes nothing: the message is validated and answered as GET would answer it.
    const query = ctx.querystring;
    const outcome = ctx.method === 'HEAD' ? checked(api.controller().validate(query)) : await applied(api, query);
    const { body, logged } = answered(outcome);
    ctx.state.logged = logged;
    ctx.set('Content-Type', JSON_TYPE);
    ctx.body = body;
  });
}
