import type { Frame, Output, OutputDetails } from './types.js';

export interface OutputHealth {
  driver: string;
  open: boolean;
  lastSendAt?: string;
  lastResult?: 'ok' | 'error';
  consecutiveFailures: number;
  framesSent: number;
  /** The last failure, kept after recovery as history; lastErrorAt says when. */
  lastError?: string;
  lastErrorAt?: string;
  /** Times the output was closed after REOPEN_AFTER_FAILURES failures in a row, to be opened again. */
  reopens: number;
  /** When the next attempt to (re)open is due, while the output is closed after a failure. */
  nextRetryAt?: string;
  /** Conditions an operator should see on /info even while frames go out (slow link, no receiver...). */
  warnings: string[];
  details: OutputDetails;
}

export interface RunnerLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** The queue when nothing is in it. */
const SETTLED: Promise<unknown> = Promise.resolve();

/** Reopen delays: 0.5 s doubling to 30 s, so a dead panel costs little and a returning one is found soon. */
export const BACKOFF_MIN_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
/** Send failures in a row after which the output is closed and reopened: one lost packet is not a dead device. */
export const REOPEN_AFTER_FAILURES = 3;
/** How often the driver's own warnings (link down, slow link...) are looked at for the log. */
const WARNING_CHECK_MS = 1000;

/**
 * Wraps one Output so a failing panel is a warning, never a crash: open failures and
 * send failures are counted and reported through health(); submit() says whether the
 * frame reached the output, which drives confirm=1 / confirm=0.
 */
export class OutputRunner {
  private isOpen = false;
  private framesSent = 0;
  private consecutiveFailures = 0;
  private openFailures = 0;
  private nextOpenAt = 0;
  /** NaN until the first send: a number field throughout, so storing a time makes no heap number. */
  private lastSendAt = NaN;
  private lastResult: 'ok' | 'error' | undefined;
  private lastError: string | undefined;
  private lastErrorAt: number | undefined;
  private reopens = 0;
  private stopped = false;
  private brightness: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Submits and reopen checks in the queue or under way: 0 when the driver is free. */
  private pending = 0;
  private loggedWarnings = new Set<string>();
  private warningsCheckedAt = -Infinity;

  constructor(
    readonly output: Output,
    private readonly log: RunnerLog,
    private readonly now: () => number = Date.now,
  ) {
    output.onError?.((err) => this.reported(err));
  }

  /** Opens the output and writes one black frame before anything else (blank on restart). */
  async start(width: number, height: number, black?: Frame): Promise<void> {
    this.stopped = false;
    // The caller may hand over a black frame it already holds: a 1080p frame is 8 MB.
    await this.submit(black ?? { width, height, data: new Uint8Array(width * height * 4), seq: 0 });
  }

  /**
   * Frames reach the output one at a time, in order: drivers reuse their packet buffers.
   * Answers whether the frame reached the output: at once (a boolean) when the driver
   * finished inside its send, else a promise.
   */
  submit(frame: Frame): boolean | Promise<boolean> {
    this.pending++;
    // The usual case, an open output with nothing before this frame: straight to the driver,
    // without two links and their closures in the queue's chain for every frame.
    if (this.pending === 1 && this.isOpen) {
      const done = this.sendNow(frame);
      this.queue = typeof done === 'boolean' ? SETTLED : done;
      return done;
    }
    const next = this.queue.then(() => this.submitNow(frame));
    this.queue = next.catch(() => false);
    return next;
  }

  private async submitNow(frame: Frame): Promise<boolean> {
    let open = false;
    try {
      open = await this.ensureOpen();
    } finally {
      if (!open) this.pending--;
    }
    return open ? this.sendNow(frame) : false;
  }

  /** Sends to the open output; ends one pending submit. A driver done inside send() makes no promise here either. */
  private sendNow(frame: Frame): boolean | Promise<boolean> {
    let sending: void | Promise<void>;
    try {
      sending = this.output.send(frame);
    } catch (err) {
      return this.failed(err);
    }
    if (sending === undefined) {
      this.pending--;
      this.succeeded();
      return true;
    }
    return this.settle(sending);
  }

  private async settle(sending: Promise<void>): Promise<boolean> {
    try {
      await sending;
    } catch (err) {
      return this.failed(err);
    }
    this.pending--;
    this.succeeded();
    return true;
  }

  private succeeded(): void {
    this.framesSent++;
    this.consecutiveFailures = 0;
    this.lastResult = 'ok';
    const now = this.now();
    this.lastSendAt = now;
    if (now - this.warningsCheckedAt >= WARNING_CHECK_MS) this.logWarningChanges(now);
  }

  /** A send failed: counted, and enough failures in a row close the output for a reopen; ends one pending submit. */
  private async failed(err: unknown): Promise<boolean> {
    try {
      this.fail(err, 'send');
      if (this.consecutiveFailures >= REOPEN_AFTER_FAILURES) await this.closeForRetry();
      return false;
    } finally {
      this.pending--;
    }
  }

  async setBrightness(percent: number): Promise<void> {
    this.brightness = percent;
    if (!this.isOpen) return; // applied on the next successful open
    try {
      await this.output.setBrightness(percent);
    } catch (err) {
      this.fail(err, 'brightness');
    }
  }

  health(): OutputHealth {
    const details = this.output.describe();
    const warnings = [...(details.warnings ?? [])];
    if (!this.isOpen && this.lastError) warnings.unshift(`output not open: ${this.lastError}`);
    return {
      driver: this.output.driver,
      open: this.isOpen,
      lastSendAt: Number.isNaN(this.lastSendAt) ? undefined : new Date(this.lastSendAt).toISOString(),
      lastResult: this.lastResult,
      consecutiveFailures: this.consecutiveFailures,
      framesSent: this.framesSent,
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt === undefined ? undefined : new Date(this.lastErrorAt).toISOString(),
      reopens: this.reopens,
      nextRetryAt: !this.isOpen && this.nextOpenAt > this.now() ? new Date(this.nextOpenAt).toISOString() : undefined,
      warnings,
      details,
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.isOpen = false;
    await this.output.close();
  }

  /** Driver warnings go to the log once when they appear and once when they clear, not per frame. */
  private logWarningChanges(now: number): void {
    this.warningsCheckedAt = now;
    const current = new Set(this.output.describe().warnings ?? []);
    for (const msg of current)
      if (!this.loggedWarnings.has(msg)) this.log.warn({ driver: this.output.driver, warning: msg }, 'output warning');
    for (const msg of this.loggedWarnings)
      if (!current.has(msg)) this.log.info({ driver: this.output.driver, warning: msg }, 'output warning cleared');
    this.loggedWarnings = current;
  }

  private async ensureOpen(): Promise<boolean> {
    if (this.isOpen) return true;
    if (this.stopped || this.now() < this.nextOpenAt) return false;
    try {
      await this.output.open();
      this.isOpen = true;
      if (this.openFailures > 0)
        this.log.info({ driver: this.output.driver, after: this.openFailures }, 'output reopened');
      this.openFailures = 0;
      if (this.brightness !== undefined) await this.setBrightness(this.brightness);
      return true;
    } catch (err) {
      this.fail(err, 'open');
      await this.output.close().catch(() => undefined);
      this.scheduleRetry();
      return false;
    }
  }

  /**
   * An error the device reported between sends (a receiver's ICMP "port unreachable" after
   * the picture that drew it was counted): a failure like a failed send, so the health turns
   * to error at once and enough of them reopen the output.
   */
  private reported(err: Error): void {
    if (this.stopped || !this.isOpen) return;
    this.fail(err, 'send');
    if (this.consecutiveFailures < REOPEN_AFTER_FAILURES) return;
    // Behind any send in progress: drivers are not closed under a send (nor sent to while closing).
    this.pending++;
    this.queue = this.queue
      .then(async () => {
        if (this.isOpen && !this.stopped && this.consecutiveFailures >= REOPEN_AFTER_FAILURES)
          await this.closeForRetry();
      })
      .catch(() => undefined)
      .finally(() => {
        this.pending--;
      });
  }

  private async closeForRetry(): Promise<void> {
    this.isOpen = false;
    this.reopens++;
    await this.output.close().catch(() => undefined);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    this.openFailures++;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (this.openFailures - 1));
    this.nextOpenAt = this.now() + delay;
  }

  private fail(err: unknown, phase: string): void {
    const e = err as NodeJS.ErrnoException;
    this.consecutiveFailures++;
    this.lastResult = 'error';
    this.lastSendAt = this.now();
    this.lastErrorAt = this.now();
    const code = e.code && !e.message?.startsWith(e.code) ? e.code + ' ' : '';
    this.lastError = `${phase}: ${code}${e.message ?? String(err)}`;
    if (this.consecutiveFailures === 1 || this.consecutiveFailures % 100 === 0) {
      this.log.warn(
        { driver: this.output.driver, phase, code: e.code, err: this.lastError, failures: this.consecutiveFailures },
        'output failed',
      );
    }
  }
}
