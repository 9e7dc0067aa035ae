// One feed URL polled every `interval` seconds with conditional requests (ETag and
// Last-Modified answered by If-None-Match and If-Modified-Since: a 304 keeps the data and
// counts as fresh), the house's URL rules and size cap (fetch/fetch-limited.ts), and backoff
// on failure. A failed or unparsable poll keeps the last good data; status() says how old it is.
import type { Clock } from '../util/clock.js';
import { isoTime } from '../util/clock.js';
import { fetchLimited } from '../fetch/fetch-limited.js';
import { describeUrl } from '../fetch/url-rules.js';
import { MldsError } from '../errors.js';

export const FEED_TIMEOUT_MS = 20_000;
/** After a failure the wait doubles, up to this many intervals. */
export const FEED_BACKOFF_LIMIT = 8;

export interface PollOptions<T> {
  url: string;
  /** Names the URL in errors (`feeds/<id>/url`). */
  field: string;
  /** The feed's own headers (an API key): sent, never logged or shown. */
  headers?: Record<string, string>;
  /** Each poll POSTs this body (made anew each time) instead of a conditional GET. */
  post?: () => { body: string; contentType: string };
  interval: number;
  maxBytes: number;
  portRange: readonly [number, number];
  clock: Clock;
  /** Turns a body into data; throws on a body it cannot read (a fault: the last good data stays). */
  parse(body: Buffer, contentType: string | undefined): Promise<T>;
  /** New good data arrived (not called for a 304). */
  onData(data: T): void;
  onFault?(message: string): void;
}

export interface PollStatus {
  url: string;
  state: 'waiting' | 'ok' | 'fault';
  /** fault: the last poll failed (the last good data is still used). */
  /** When the last good data arrived or a 304 confirmed it. */
  lastGoodAt?: string;
  /** Seconds since lastGoodAt. */
  ageSeconds?: number;
  lastFault?: string;
  lastFaultAt?: string;
  /** When the failures in a row began. */
  failingSince?: string;
  failures: number;
  nextPollAt?: string;
}

/** A message with the feed's header values (its keys, which a server's error may echo) masked. */
function masked(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}

export class FeedPoll<T> {
  data: T | undefined;
  lastGoodAt: number | undefined;
  lastFault: string | undefined;
  lastFaultAt: number | undefined;
  failingSince: number | undefined;
  failures = 0;
  private etag: string | undefined;
  private lastModified: string | undefined;
  private timer: unknown;
  private nextAt: number | undefined;
  private abort: AbortController | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly o: PollOptions<T>) {}

  start(): void {
    this.pollNow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.o.clock.clearTimeout(this.timer);
    this.abort?.abort();
    await this.running?.catch(() => undefined);
  }

  /** The age of the last good data in ms at `now` (Infinity when none came yet). */
  age(now: number): number {
    return this.lastGoodAt === undefined ? Infinity : Math.max(0, now - this.lastGoodAt);
  }

  status(now: number): PollStatus {
    return {
      url: describeUrl(this.o.url),
      state: this.failures > 0 ? 'fault' : this.lastGoodAt === undefined ? 'waiting' : 'ok',
      lastGoodAt: isoTime(this.lastGoodAt),
      ageSeconds: this.lastGoodAt === undefined ? undefined : Math.round(this.age(now) / 1000),
      lastFault: this.lastFault,
      lastFaultAt: isoTime(this.lastFaultAt),
      failingSince: this.failures ? isoTime(this.failingSince) : undefined,
      failures: this.failures,
      nextPollAt: isoTime(this.nextAt),
    };
  }

  private pollNow(): void {
    if (this.stopped) return;
    this.nextAt = undefined;
    this.running = this.poll().finally(() => {
      this.running = undefined;
    });
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.nextAt = this.o.clock.now() + ms;
    this.timer = this.o.clock.setTimeout(() => {
      this.timer = undefined;
      this.pollNow();
    }, ms);
  }

  private async poll(): Promise<void> {
    const started = this.o.clock.now();
    const abort = new AbortController();
    this.abort = abort;
    const headers: Record<string, string> = { ...this.o.headers };
    const post = this.o.post?.();
    // A POST asks anew each time (a server may answer a conditional POST with 412).
    if (post) headers['content-type'] = post.contentType;
    else {
      if (this.etag) headers['if-none-match'] = this.etag;
      if (this.lastModified) headers['if-modified-since'] = this.lastModified;
    }
    try {
      let res;
      try {
        res = await fetchLimited(this.o.url, {
          maxBytes: this.o.maxBytes,
          timeoutMs: FEED_TIMEOUT_MS,
          portRange: this.o.portRange,
          signal: abort.signal,
          field: this.o.field,
          headers,
          ...(post ? { method: 'POST' as const, body: post.body } : {}),
        });
      } catch (err) {
        // fetchLimited takes any status but 2xx for a failure; 304 is the server saying "still the same".
        if (err instanceof MldsError && err.details?.httpStatus === 304 && this.data !== undefined) {
          this.good(started);
          return;
        }
        throw err;
      }
      const data = await this.o.parse(res.body ?? Buffer.alloc(0), res.contentType);
      if (this.stopped) return;
      this.etag = res.headers.get('etag') ?? undefined;
      this.lastModified = res.headers.get('last-modified') ?? undefined;
      this.data = data;
      this.good(started);
      this.o.onData(data);
    } catch (err) {
      if (this.stopped) return;
      if (this.failures++ === 0) this.failingSince = this.o.clock.now();
      this.lastFault = masked((err as Error).message, Object.values(this.o.headers ?? {}));
      this.lastFaultAt = this.o.clock.now();
      this.o.onFault?.(this.lastFault);
      this.schedule((this.o.interval * 1000 * Math.min(2 ** this.failures, FEED_BACKOFF_LIMIT)) / 2);
    } finally {
      this.abort = undefined;
    }
  }

  private good(started: number): void {
    this.lastGoodAt = this.o.clock.now();
    this.failures = 0;
    // Steady rhythm: the interval counts from the start of this poll.
    this.schedule(Math.max(0, started + this.o.interval * 1000 - this.o.clock.now()));
  }
}
