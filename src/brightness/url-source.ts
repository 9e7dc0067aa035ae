// `brightnessUrl` (from version 1.5.2): a plain-text number 0..100 fetched every URL_POLL_MS
// under the URL rules (fetchLimited: a timeout, a size limit, at most 3 redirects). Any other
// body, or a failed fetch, is a warning and the last good value stays; it counts for
// STALE_AFTER_MS after the last good fetch, then the next source down takes over.
import { MldsError } from '../errors.js';
import type { Logger } from '../log/logger.js';
import { describeUrl } from '../fetch/url-rules.js';
import { fetchLimited } from '../fetch/fetch-limited.js';
import type { Clock } from '../util/clock.js';
import { isoTime } from '../util/clock.js';
import { STALE_AFTER_MS } from './sensors/sensor.js';

export const URL_POLL_MS = 60_000;
export const URL_TIMEOUT_MS = 10_000;
/** "100\r\n" with room for whitespace; anything longer is not a brightness. */
export const URL_MAX_BYTES = 64;

/** The brightness in a body, or undefined: an integer 0..100 (a decimal is rounded), surrounding whitespace allowed. */
export function parseBrightnessBody(body: string): number | undefined {
  const m = /^\s*(\d{1,3}(?:\.\d+)?)\s*$/.exec(body);
  if (!m) return undefined;
  const v = Number(m[1]);
  return v <= 100 ? Math.round(v) : undefined;
}

export interface UrlStatus {
  url: string;
  value?: number;
  lastGoodAt?: string;
  lastFetchAt?: string;
  fresh: boolean;
  warning?: string;
}

export class UrlSource {
  private timer: unknown;
  private abort = new AbortController();
  private stopped = false;
  private value: number | undefined;
  private lastGoodAt: number | undefined;
  private lastFetchAt: number | undefined;
  private problem: string | undefined;

  constructor(
    readonly unitMain: string,
    readonly url: string,
    private readonly deps: {
      clock: Clock;
      log: Logger;
      portRange: readonly [number, number];
      onChange(): void;
      pollMs?: number;
    },
  ) {}

  start(): void {
    void this.poll();
  }

  current(now: number): number | undefined {
    return this.lastGoodAt !== undefined && now - this.lastGoodAt <= STALE_AFTER_MS ? this.value : undefined;
  }

  freshUntil(): number | undefined {
    return this.lastGoodAt === undefined ? undefined : this.lastGoodAt + STALE_AFTER_MS;
  }

  status(now: number): UrlStatus {
    return {
      url: describeUrl(this.url),
      value: this.value,
      lastGoodAt: isoTime(this.lastGoodAt),
      lastFetchAt: isoTime(this.lastFetchAt),
      fresh: this.current(now) !== undefined,
      ...(this.problem
        ? {
            warning:
              this.problem +
              (this.current(now) !== undefined
                ? `; the last good value ${this.value} holds until ${isoTime(this.freshUntil())}`
                : ''),
          }
        : {}),
    };
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    const { clock, log } = this.deps;
    let problem: string | undefined;
    try {
      const r = await fetchLimited(this.url, {
        maxBytes: URL_MAX_BYTES,
        timeoutMs: URL_TIMEOUT_MS,
        maxRedirects: 3,
        portRange: this.deps.portRange,
        signal: this.abort.signal,
        field: 'brightnessUrl',
        headers: { accept: 'text/plain' },
      });
      if (this.stopped) return;
      const text = r.body?.toString('utf8') ?? '';
      const v = parseBrightnessBody(text);
      if (v === undefined) problem = `the body is not a brightness 0..100: ${JSON.stringify(text.slice(0, 20))}`;
      else {
        const wasFresh = this.current(clock.now()) !== undefined;
        const changed = v !== this.value;
        this.value = v;
        this.lastGoodAt = clock.now();
        if (changed || !wasFresh) this.deps.onChange();
      }
    } catch (err) {
      if (this.stopped) return;
      problem = err instanceof MldsError ? err.message : `fetch failed: ${(err as Error).message}`;
    }
    this.lastFetchAt = clock.now();
    if (problem !== this.problem) {
      if (problem)
        log.warn(
          { unit: this.unitMain, url: describeUrl(this.url), problem },
          'brightnessUrl ignored; the last good value stays',
        );
      else if (this.problem)
        log.info({ unit: this.unitMain, url: describeUrl(this.url), value: this.value }, 'brightnessUrl answers again');
      this.problem = problem;
    }
    this.timer = clock.setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, this.deps.pollMs ?? URL_POLL_MS);
  }
}
