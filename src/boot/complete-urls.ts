// `startScreen.completeUrls`: visited once in the background when a unit's boot ends, to tell
// a backend the panel is up. A failure is retried with a doubling delay and logged; the body
// is read (within a small limit) and dropped.
import type { DisplayConfig } from '../config/types.js';
import { fetchLimited } from '../fetch/fetch-limited.js';
import { describeUrl } from '../fetch/url-rules.js';
import type { RuntimeContext } from '../capability/component-contract.js';
import { isoTime } from '../util/clock.js';
import type { CompleteUrlVisit } from '../capability/boot.js';

export const COMPLETE_URL_LIMITS = { maxBytes: 64 * 1024, timeoutMs: 10_000, maxRedirects: 3 } as const;
/** Delay before the first retry; it doubles up to MAX_DELAY_MS, for MAX_ATTEMPTS in all. */
export const FIRST_RETRY_MS = 5_000;
export const MAX_DELAY_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 6;

interface Visit {
  display: string;
  url: string;
  result: CompleteUrlVisit['result'];
  attempts: number;
  at?: number;
  httpStatus?: number;
  lastError?: string;
  nextAttemptAt?: number;
  timer?: unknown;
}

export class CompleteUrls {
  private readonly visits: Visit[] = [];
  private readonly abort = new AbortController();

  constructor(private readonly ctx: RuntimeContext) {}

  begin(displays: DisplayConfig[]): void {
    for (const d of displays) {
      const url = d.startScreen.completeUrls;
      if (!url) continue;
      const v: Visit = { display: d.id, url, result: 'pending', attempts: 0 };
      this.visits.push(v);
      void this.attempt(v);
    }
  }

  stop(): void {
    this.abort.abort();
    for (const v of this.visits) if (v.timer !== undefined) this.ctx.clock.clearTimeout(v.timer);
  }

  status(): CompleteUrlVisit[] {
    return this.visits.map((v) => ({
      display: v.display,
      url: describeUrl(v.url),
      result: v.result,
      attempts: v.attempts,
      at: isoTime(v.at),
      httpStatus: v.httpStatus,
      lastError: v.lastError,
      nextAttemptAt: isoTime(v.nextAttemptAt),
    }));
  }

  private async attempt(v: Visit): Promise<void> {
    const { ctx } = this;
    v.timer = undefined;
    v.nextAttemptAt = undefined;
    v.attempts++;
    const where = { display: v.display, url: describeUrl(v.url), attempt: v.attempts };
    try {
      const res = await fetchLimited(v.url, {
        ...COMPLETE_URL_LIMITS,
        portRange: ctx.config().urlPortRange,
        signal: this.abort.signal,
        field: 'completeUrls',
      });
      Object.assign(v, { result: 'ok', at: ctx.clock.now(), httpStatus: res.status, lastError: undefined });
      ctx.log.info({ ...where, status: res.status }, 'completeUrls visited');
    } catch (err) {
      if (this.abort.signal.aborted) return;
      v.at = ctx.clock.now();
      v.lastError = (err as Error).message;
      if (v.attempts >= MAX_ATTEMPTS) {
        v.result = 'failed';
        ctx.log.warn({ ...where, err: v.lastError }, 'completeUrls failed; giving up');
        return;
      }
      const delay = Math.min(MAX_DELAY_MS, FIRST_RETRY_MS * 2 ** (v.attempts - 1));
      v.nextAttemptAt = ctx.clock.now() + delay;
      ctx.log.warn({ ...where, err: v.lastError, retryInSeconds: delay / 1000 }, 'completeUrls failed; retrying');
      v.timer = ctx.clock.setTimeout(() => void this.attempt(v), delay);
    }
  }
}
