import type { DisplayConfig } from '../config/types.js';
import type { StateStore } from '../control/store.js';
import { MAX_INUMBER } from '../control/command.js';
import type { Clock } from '../util/clock.js';
import type { ServiceProblem } from '../problem.js';
import { checkAddress } from '../fetch/address-rules.js';
import { userAgent } from '../fetch/user-agent.js';

export interface FeedbackLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface FeedbackOptions {
  attempts: number;
  firstDelayMs: number;
  timeoutMs: number;
  /** Confirmations not yet delivered, per feedback address; beyond it the oldest is dropped. */
  queueLimit: number;
  /** Sends in flight at once, per feedback address. */
  concurrency: number;
}

const DEFAULTS: FeedbackOptions = {
  attempts: 5,
  firstDelayMs: 1000,
  timeoutMs: 3000,
  queueLimit: 1000,
  concurrency: 4,
};
/** How many recent confirmations are kept for status and tests: a unit runs for years. */
const KEEP_SENT = 100;

/**
 * A faulty command's inumber (a refused one may be longer than MAX_INUMBER) cut to the limit, so
 * a hostile one is not echoed whole to the feedback server (and into its log). No surrogate pair
 * is split and a lone half (a cron's JSON can hold one) becomes U+FFFD: encodeURIComponent
 * throws on it.
 */
function bounded(inumber: string): string {
  let cut = inumber.length <= MAX_INUMBER ? inumber : inumber.slice(0, MAX_INUMBER);
  if (cut.length < inumber.length && /[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

interface Entry {
  seq: number;
  id: string;
  confirm: 0 | 1 | 2;
  inumber: string;
  url: string;
  /** Attempts made so far. */
  attempts: number;
  /** Not to be tried before this time (clock ms). */
  dueAt: number;
  /** Set while an attempt is in flight. */
  abort?: AbortController;
}

/** One feedback server (confirmIp:confirmPort): its queue, in production order, and its health. */
interface Target {
  address: string;
  queue: Entry[];
  sending: number;
  timer?: unknown;
  /** Failed attempts in a row; 0 while it answers. */
  failures: number;
  failingSince?: number;
  lastError?: string;
  dropped: number;
}

export interface FeedbackStatus {
  /** Confirmations waiting or in flight, over every feedback address. */
  queued: number;
  /** Dropped because their address's queue was full (oldest first), since the start. */
  dropped: number;
  /** Given up after the last attempt, since the start. */
  givenUp: number;
  delivered: number;
  targets: Array<{
    address: string;
    queued: number;
    sending: number;
    failures: number;
    lastError?: string;
    failingSince?: string;
    dropped: number;
  }>;
}

/**
 * Confirmations to the feedback server: GET http://confirmIp:confirmPort/mlds?confirm=N&inumber=X.
 * confirm() only queues, so the request that caused it never waits. Per feedback address at
 * most `concurrency` sends are in flight, each with its own timeout, and at most `queueLimit`
 * wait; a fuller queue drops its oldest with a log line. A failed send is retried with
 * doubling delays, `attempts` times in all; the first success after failures retries every
 * waiting one at once, so a server that comes back gets the backlog without delay.
 * An equal confirmation to the last one sent for the display, or to one waiting, is dropped.
 */
export class FeedbackSender {
  private readonly opts: FeedbackOptions;
  private readonly targets = new Map<string, Target>();
  /** `id \0 confirm \0 inumber` of every confirmation waiting or in flight. */
  private readonly pending = new Set<string>();
  /** The newest confirmation (by production order) stored as last sent, per display. */
  private readonly storedSeq = new Map<string, number>();
  private seq = 0;
  private givenUp = 0;
  private delivered = 0;
  private stopped = false;
  readonly sent: Array<{ id: string; confirm: number; inumber: string; at: number; ok: boolean }> = [];

  constructor(
    private readonly store: StateStore,
    private readonly clock: Clock,
    private readonly log: FeedbackLog,
    opts: Partial<FeedbackOptions> = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  confirm(display: DisplayConfig, confirm: 0 | 1 | 2, whole: string): void {
    if (!display.confirmIp || !display.confirmPort || this.stopped) return;
    const inumber = bounded(whole);
    const key = `${display.id}\u0000${confirm}\u0000${inumber}`;
    const last = this.store.get().lastFeedback[display.id];
    if ((last && last.confirm === confirm && last.inumber === inumber) || this.pending.has(key)) return;
    this.pending.add(key);
    const address = `${display.confirmIp}:${display.confirmPort}`;
    let t = this.targets.get(address);
    if (!t) this.targets.set(address, (t = { address, queue: [], sending: 0, failures: 0, dropped: 0 }));
    const url = `http://${address}/mlds?confirm=${confirm}&inumber=${encodeURIComponent(inumber)}`;
    t.queue.push({ seq: ++this.seq, id: display.id, confirm, inumber, url, attempts: 0, dueAt: this.clock.now() });
    if (t.queue.length > this.opts.queueLimit) this.drop(t, t.queue[0]);
    this.pump(t);
  }

  status(): FeedbackStatus {
    const targets = [...this.targets.values()].map((t) => ({
      address: t.address,
      queued: t.queue.length,
      sending: t.sending,
      failures: t.failures,
      lastError: t.lastError,
      failingSince: t.failingSince === undefined ? undefined : new Date(t.failingSince).toISOString(),
      dropped: t.dropped,
    }));
    return {
      queued: targets.reduce((n, t) => n + t.queued, 0),
      dropped: targets.reduce((n, t) => n + t.dropped, 0),
      givenUp: this.givenUp,
      delivered: this.delivered,
      targets,
    };
  }

  /** A feedback server that does not answer, for /status and /info, while it lasts. */
  problems(): ServiceProblem[] {
    return [...this.targets.values()]
      .filter((t) => t.failures > 0)
      .map((t) => ({
        source: 'feedback',
        message:
          `the feedback server ${t.address} does not take confirmations (${t.lastError}); ` +
          `${t.queue.length} waiting, ${t.dropped} dropped because the queue was full`,
        since: new Date(t.failingSince ?? this.clock.now()).toISOString(),
      }));
  }

  /** Ends every send and retry; nothing is sent afterwards. */
  stop(): void {
    this.stopped = true;
    for (const t of this.targets.values()) {
      if (t.timer !== undefined) this.clock.clearTimeout(t.timer);
      for (const e of t.queue) e.abort?.abort();
      t.queue = [];
    }
    this.pending.clear();
  }

  private drop(t: Target, e: Entry): void {
    this.remove(t, e);
    e.abort?.abort();
    t.dropped++;
    this.log.warn(
      {
        id: e.id,
        confirm: e.confirm,
        inumber: e.inumber,
        address: t.address,
        queueLimit: this.opts.queueLimit,
        dropped: t.dropped,
      },
      'confirmation dropped: the feedback queue is full',
    );
  }

  private remove(t: Target, e: Entry): void {
    const i = t.queue.indexOf(e);
    if (i >= 0) t.queue.splice(i, 1);
    this.pending.delete(`${e.id}\u0000${e.confirm}\u0000${e.inumber}`);
  }

  /** Starts what may start now and sleeps until the next retry is due. */
  private pump(t: Target): void {
    if (this.stopped) return;
    const now = this.clock.now();
    let nextDue = Infinity;
    for (const e of t.queue) {
      if (e.abort) continue;
      if (e.dueAt > now) nextDue = Math.min(nextDue, e.dueAt);
      else if (t.sending < this.opts.concurrency) void this.send(t, e);
    }
    if (t.timer !== undefined) this.clock.clearTimeout(t.timer);
    t.timer =
      nextDue === Infinity
        ? undefined
        : this.clock.setTimeout(() => {
            t.timer = undefined;
            this.pump(t);
          }, nextDue - now);
  }

  private async send(t: Target, e: Entry): Promise<void> {
    const abort = new AbortController();
    e.abort = abort;
    e.attempts++;
    t.sending++;
    // Its own timer, not AbortSignal.any([.., AbortSignal.timeout()]): on Node 20 a garbage
    // collection can take the combined signal, and the send then never times out.
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException(`no answer within ${this.opts.timeoutMs} ms`, 'TimeoutError')),
      this.opts.timeoutMs,
    );
    const onAbort = () => timeout.abort(abort.signal.reason);
    abort.signal.addEventListener('abort', onAbort, { once: true });
    try {
      // confirmIp is an IP address the operator wrote, so there is no name to resolve: only the
      // own-API rule can apply. A redirect is not followed (a confirmation needs none, and one
      // could lead the GET anywhere, the unit's own /mlds included).
      const target = new URL(e.url);
      const field = `displays/${e.id}/confirmIp`;
      checkAddress(target.hostname, target, { reachedPublic: false, via: 'configured', field });
      const headers = { 'user-agent': userAgent() };
      const res = await fetch(target, { signal: timeout.signal, redirect: 'manual', headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      this.delivered++;
      this.remove(t, e);
      this.log.info({ id: e.id, confirm: e.confirm, inumber: e.inumber, attempt: e.attempts }, 'confirmation sent');
      this.record(e, true);
      this.answered(t);
      if ((this.storedSeq.get(e.id) ?? 0) < e.seq) {
        this.storedSeq.set(e.id, e.seq);
        // Not awaited: the journal's shared fdatasync would hold this send's slot for up to 200 ms.
        this.store.setLastFeedback(e.id, { confirm: e.confirm, inumber: e.inumber }).catch(() => {
          /* the store reports its own problems */
        });
      }
    } catch (err) {
      // Dropped from a full queue, or the service stopping: already accounted for.
      if (abort.signal.aborted) return;
      this.failed(t, e, err as Error);
    } finally {
      clearTimeout(timer);
      abort.signal.removeEventListener('abort', onAbort);
      t.sending--;
      e.abort = undefined;
      this.pump(t);
    }
  }

  private answered(t: Target): void {
    if (t.failures === 0) return;
    this.log.info(
      {
        address: t.address,
        failedAttempts: t.failures,
        since: new Date(t.failingSince!).toISOString(),
        waiting: t.queue.length,
        dropped: t.dropped,
      },
      'the feedback server answers again; sending what waits',
    );
    t.failures = 0;
    t.failingSince = undefined;
    t.lastError = undefined;
    const now = this.clock.now();
    for (const w of t.queue) w.dueAt = Math.min(w.dueAt, now);
  }

  private failed(t: Target, e: Entry, err: Error): void {
    const why =
      err.name === 'TimeoutError'
        ? `no answer within ${this.opts.timeoutMs} ms`
        : ((err.cause as { code?: string } | undefined)?.code ?? err.message);
    if (t.failures === 0) {
      t.failingSince = this.clock.now();
      this.log.warn(
        { address: t.address, err: why },
        'the feedback server does not take confirmations; retrying with backoff',
      );
    }
    t.failures++;
    t.lastError = why;
    if (e.attempts >= this.opts.attempts) {
      this.remove(t, e);
      this.givenUp++;
      this.record(e, false);
      this.log.warn(
        { id: e.id, confirm: e.confirm, inumber: e.inumber, attempts: e.attempts, err: why },
        'confirmation given up',
      );
      return;
    }
    e.dueAt = this.clock.now() + this.opts.firstDelayMs * 2 ** (e.attempts - 1);
  }

  private record(e: Entry, ok: boolean): void {
    this.sent.push({ id: e.id, confirm: e.confirm, inumber: e.inumber, at: this.clock.now(), ok });
    if (this.sent.length > KEEP_SENT) this.sent.splice(0, this.sent.length - KEEP_SENT);
  }
}
