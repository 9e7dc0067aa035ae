// The configuration's pollers: each fetches its URL every `interval` seconds and applies what
// the body says through the control path, as /mlds would. Waits are on the runtime's clock; the fetch itself is real.
import type { PollerConfig, ServiceConfig } from '../config/types.js';
import { fetchLimited } from '../fetch/fetch-limited.js';
import { describeUrl } from '../fetch/url-rules.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { ConfigEntries } from './config-entries.js';
import { PollerBodyError, pollerQuery } from './poller-body.js';
import { isoTime } from '../util/clock.js';

/** A response larger than this is a fetch error: a control message is a few kilobytes. */
export const POLLER_MAX_BYTES = 1024 * 1024;
export const POLLER_TIMEOUT_MS = 10_000;
/** After a failure the wait doubles, up to this many intervals. */
export const BACKOFF_LIMIT = 10;

export type PollerResult = 'applied' | 'unchanged' | 'fault' | 'fetch error';

export interface PollerStatus {
  /** Without query values: they may carry a key. */
  url: string;
  interval: number;
  mapper?: string;
  lastFetchAt?: string;
  lastResult?: PollerResult;
  message?: string;
  nextFetchAt?: string;
  /** The wait before the next fetch while failing (seconds), 0 while healthy. */
  backoffSeconds: number;
  failures: number;
}

interface Poll {
  config: PollerConfig;
  index: number;
  timer?: unknown;
  abort?: AbortController;
  fetching?: Promise<void>;
  lastFetchAt?: number;
  nextFetchAt?: number;
  lastResult?: PollerResult;
  message?: string;
  failures: number;
  /** The query last applied (or found faulty), to skip an unchanged body. */
  lastQuery?: string;
  stopped: boolean;
}

const keyOf = (p: PollerConfig) =>
  JSON.stringify([p.url, p.interval, p.mapper ?? null, p.keep ?? false, p.priority ?? 0, p.expires ?? null]);

/** The wait after `failures` failures in a row: interval x 2^failures, at most BACKOFF_LIMIT x interval. */
export function backoffMs(interval: number, failures: number): number {
  return interval * 1000 * Math.min(2 ** failures, BACKOFF_LIMIT);
}

/** A poller whose url, interval, mapper and level stay across a reload keeps its rhythm; the rest stop or start. */
export class Pollers extends ConfigEntries<PollerConfig, Poll> {
  readonly name = 'pollers';

  protected listOf(config: ServiceConfig): PollerConfig[] {
    return config.pollers;
  }
  protected same(a: PollerConfig, b: PollerConfig): boolean {
    return keyOf(a) === keyOf(b);
  }
  protected running(p: Poll): Promise<void> | undefined {
    return p.fetching;
  }

  protected keep(p: Poll, _config: PollerConfig, index: number): void {
    p.index = index;
    // The changed displays may now accept a body they refused.
    if (p.lastResult === 'fault') p.lastQuery = undefined;
  }

  status(): { pollers: PollerStatus[] } {
    return {
      pollers: this.entries.map((p) => ({
        url: describeUrl(p.config.url),
        interval: p.config.interval,
        ...(p.config.mapper ? { mapper: `JSON to ${p.config.mapper.id}, layout ${p.config.mapper.layout}` } : {}),
        lastFetchAt: isoTime(p.lastFetchAt),
        lastResult: p.lastResult,
        message: p.message,
        nextFetchAt: isoTime(p.nextFetchAt),
        backoffSeconds: p.failures ? backoffMs(p.config.interval, p.failures) / 1000 : 0,
        failures: p.failures,
      })),
    };
  }

  /** The first fetch happens at once: a display should not wait an interval for its content. */
  protected begin(config: PollerConfig, index: number): Poll {
    const p: Poll = { config, index, failures: 0, stopped: false };
    this.fetchNow(p);
    return p;
  }

  protected end(p: Poll): void {
    p.stopped = true;
    if (p.timer !== undefined) this.ctx?.clock.clearTimeout(p.timer);
    p.timer = undefined;
    p.nextFetchAt = undefined;
    p.abort?.abort();
  }

  private schedule(p: Poll, ms: number): void {
    const ctx = this.ctx;
    if (!ctx || p.stopped) return;
    p.nextFetchAt = ctx.clock.now() + ms;
    p.timer = ctx.clock.setTimeout(() => {
      p.timer = undefined;
      this.fetchNow(p);
    }, ms);
  }

  private fetchNow(p: Poll): void {
    const ctx = this.ctx;
    if (!ctx || p.stopped) return;
    const abort = new AbortController();
    p.abort = abort;
    p.nextFetchAt = undefined;
    p.fetching = this.poll(ctx, p, abort.signal).finally(() => {
      p.fetching = undefined;
      p.abort = undefined;
    });
  }

  private async poll(ctx: RuntimeContext, p: Poll, signal: AbortSignal): Promise<void> {
    const started = ctx.clock.now();
    p.lastFetchAt = started;
    const { url, interval, mapper } = p.config;
    const facts = { poller: p.index, url: describeUrl(url) };
    let body: Buffer;
    try {
      const res = await fetchLimited(url, {
        maxBytes: POLLER_MAX_BYTES,
        timeoutMs: POLLER_TIMEOUT_MS,
        portRange: ctx.config().urlPortRange,
        signal,
        field: `pollers/${p.index}/url`,
      });
      body = res.body ?? Buffer.alloc(0);
    } catch (err) {
      if (p.stopped) return;
      p.failures++;
      const wait = backoffMs(interval, p.failures);
      this.result(p, 'fetch error', (err as Error).message);
      ctx.log.warn(
        { ...facts, err: (err as Error).message, failures: p.failures, nextInSeconds: wait / 1000 },
        'poller fetch failed; backing off',
      );
      this.schedule(p, wait);
      return;
    }
    if (p.stopped) return;
    if (p.failures) ctx.log.info({ ...facts, failures: p.failures }, 'poller fetches again');
    p.failures = 0;
    await this.applyBody(ctx, p, body, mapper, facts);
    // Steady rhythm: the interval counts from the start of this fetch.
    this.schedule(p, Math.max(0, started + interval * 1000 - ctx.clock.now()));
  }

  private async applyBody(
    ctx: RuntimeContext,
    p: Poll,
    body: Buffer,
    mapper: PollerConfig['mapper'],
    facts: object,
  ): Promise<void> {
    let query: string;
    let leftOut: string[];
    try {
      ({ query, leftOut } = pollerQuery(body, mapper));
    } catch (err) {
      if (!(err instanceof PollerBodyError)) throw err;
      this.result(p, 'fault', err.message);
      ctx.log.warn({ ...facts, err: err.message }, 'poller body cannot be applied');
      return;
    }
    query = withLevel(query, p.config);
    // A level above 0 runs out unless the poller says it again: an unchanged body renews it.
    const renews = (p.config.priority ?? 0) > 0 && p.lastResult !== 'fault';
    if (query === '' || (query === p.lastQuery && !renews)) {
      // An unchanged faulty body stays a fault on /status; it is not applied again either.
      if (p.lastResult !== 'fault' || query === '')
        this.result(p, 'unchanged', query === '' ? 'empty body: nothing to apply' : 'same as the last body');
      return;
    }
    p.lastQuery = query;
    try {
      const r = await ctx.apply(query, 'poller');
      const notes = [
        ...(leftOut.length ? [`left out ${leftOut.join(', ')} (no text at their pointer)`] : []),
        ...(r.ignored.length ? [`ignored ${r.ignored.join(', ')}`] : []),
      ];
      this.result(p, 'applied', `to ${r.displayId}, layout ${r.layout}${notes.length ? `; ${notes.join('; ')}` : ''}`);
    } catch (err) {
      // The controller logged it and shows it on /info like a faulty /mlds request.
      this.result(p, 'fault', (err as Error).message);
      // Not stored, so not applied: the same body is applied at the next poll.
      if ((err as { code?: string }).code === 'MLDS_STATE_UNWRITABLE') p.lastQuery = undefined;
    }
  }

  private result(p: Poll, result: PollerResult, message: string): void {
    p.lastResult = result;
    p.message = message;
  }
}

/** The poller's keep and priority join its body's query, unless the body names them itself. */
export function withLevel(query: string, c: PollerConfig): string {
  if (query === '') return query;
  const names = new Set(query.split('&').map((p) => p.split('=')[0]));
  let out = query;
  if (c.keep && !names.has('keep')) out += '&keep=1';
  if (c.priority && !names.has('priority'))
    out += `&priority=${c.priority}${names.has('expires') ? '' : `&expires=${c.expires}`}`;
  return out;
}

export function pollersComponent(): Component {
  return new Pollers();
}
