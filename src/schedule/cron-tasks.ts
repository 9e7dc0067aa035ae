// What each cron type does when it fires (docs/configuration.md,
// Crons). Each task resolves with a line for /status and the log, or throws.
import type { CronConfig } from '../config/types.js';
import { maskQuery } from '../control/credentials.js';
import { MldsError } from '../errors.js';
import { fetchLimited, type FetchLimitedOptions } from '../fetch/fetch-limited.js';
import { describeUrl } from '../fetch/url-rules.js';
import type { RuntimeContext } from '../capability/component-contract.js';
import { VERSION } from '../version.js';

/** One run of a sendInfo or url cron: connecting, redirects and the answer together. */
export const CRON_FETCH_TIMEOUT_MS = 10_000;
/** An answer is read up to this size; beyond it the rest is not read, and the run still counts. */
const ANSWER_LIMIT = 1024 * 1024;

/** What the cron acts on, as /status and the log may show it (no query values, no key). */
export function cronTarget(c: CronConfig): string {
  if (c.type === 'data') return maskQuery(c.value ?? '');
  if (c.type === 'sendInfo' || c.type === 'url') return describeUrl(c.value ?? '');
  return 'every display';
}

export async function runCronTask(
  c: CronConfig,
  ctx: RuntimeContext,
  signal: AbortSignal,
  field: string,
): Promise<string> {
  switch (c.type) {
    case 'data':
      return data(c.value ?? '', ctx);
    case 'sendInfo':
      return sendInfo(c, ctx, signal, field);
    case 'loadLastRequest':
      return loadLastRequest(ctx);
    case 'url':
      return url(c.value ?? '', ctx, signal, field);
  }
}

/** The query goes through the control path as /mlds does: a fault shows on /info and is confirmed with confirm=2. */
async function data(query: string, ctx: RuntimeContext): Promise<string> {
  const r = await ctx.apply(query, 'cron');
  return `applied to ${r.displayId}, layout ${r.layout}${r.ignored.length ? `; ignored ${r.ignored.join(', ')}` : ''}`;
}

/** The /info page (text/html) or, with format json, the /status document, as the unit shows them now. */
async function sendInfo(c: CronConfig, ctx: RuntimeContext, signal: AbortSignal, field: string): Promise<string> {
  const json = c.format === 'json';
  const body = json ? JSON.stringify(ctx.status()) : await ctx.infoPage();
  const type = json ? 'application/json' : 'text/html; charset=utf-8';
  const answer = await fetchAnswer(c.value ?? '', ctx, {
    method: 'POST',
    body,
    headers: { 'content-type': type, 'user-agent': `mlds/${VERSION}` },
    signal,
    field,
  });
  return `posted ${Buffer.byteLength(body)} bytes of ${json ? '/status JSON' : '/info HTML'}; ${answer}`;
}

/**
 * Each display's last accepted request shown again, as the boot replay does (not saved again,
 * not confirmed): what a ttl emptied or a panel that lost power comes back.
 */
async function loadLastRequest(ctx: RuntimeContext): Promise<string> {
  const done: string[] = [];
  const failed: string[] = [];
  const saved = ctx.savedRequests();
  for (const d of ctx.config().displays) {
    const query = saved[d.id];
    if (query === undefined) continue;
    try {
      await ctx.apply(query, 'replay');
      done.push(d.id);
    } catch (err) {
      failed.push(`${d.id}: ${(err as Error).message}`);
    }
  }
  if (failed.length) throw new Error(`replayed ${done.length}; failed ${failed.join('; ')}`);
  return done.length ? `replayed ${done.join(', ')}` : 'no display has a last command yet';
}

/** A background GET (the specification's whole definition): the answer's body is not used. */
async function url(target: string, ctx: RuntimeContext, signal: AbortSignal, field: string): Promise<string> {
  return `${await fetchAnswer(target, ctx, { method: 'GET', signal, field })}, body not used`;
}

async function fetchAnswer(target: string, ctx: RuntimeContext, opts: FetchLimitedOptions): Promise<string> {
  try {
    const res = await fetchLimited(target, {
      ...opts,
      maxBytes: ANSWER_LIMIT,
      timeoutMs: CRON_FETCH_TIMEOUT_MS,
      portRange: ctx.config().urlPortRange,
    });
    return `HTTP ${res.status}, ${res.bytes} bytes answered`;
  } catch (err) {
    // The request arrived and was answered 2xx; only its answer was longer than anyone reads.
    if (err instanceof MldsError && err.code === 'MLDS_FETCH_TOO_LARGE')
      return `answered with more than ${ANSWER_LIMIT} bytes (not read)`;
    throw err;
  }
}
