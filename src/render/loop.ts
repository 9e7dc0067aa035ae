import { mergeDamage, type Frame, type FrameFate } from '../frame.js';
import type { Compositor } from './compositor.js';
import { timeoutClock, type ClockFactory, type FrameClock } from './frame-clock.js';

/** Hands a frame to the output: whether it got there, at once when the output finished inside the call. */
export type FrameSink = (frame: Frame) => boolean | Promise<boolean>;

export interface LoopOptions {
  /** Frame rate ceiling (default 50). */
  fps?: number;
  /** What wakes the loop (default node's setTimeout; the service passes frameClock()). */
  clock?: ClockFactory;
}

export interface LoopStats {
  fps: number;
  rendered: number;
  sent: number;
  /** Frames replaced before the output took them (the output was slower than the loop). */
  dropped: number;
  /** Frame deadlines that passed without a frame (the process was late). */
  missed: number;
  /** Renders that threw; the loop retries a second later. */
  errors: number;
  lastError?: string;
}

const RETRY_MS = 1000;

type Waiter = (fate: FrameFate) => void;
/** The waiters of a frame nobody waits for: one array for all of them, never added to. */
const NO_WAITERS: readonly Waiter[] = Object.freeze([]);

/**
 * Decides when a unit's compositor draws and hands frames to its output.
 *
 * Frames are due on an absolute grid (start + k / fps), so a late frame never shifts the
 * ones after it, and the compositor positions everything from the time it is given, so a
 * late frame shows where the scroll is, not where it was. Between changes the loop sleeps
 * until the compositor's next change (a clock's next second, a GIF's next frame) and with
 * nothing animating it has no timer at all. One frame at a time goes to the sink; a newer
 * frame replaces one still waiting, so a slow output sees fewer frames, never older ones.
 */
export class FrameLoop {
  readonly period: number;
  private running = false;
  private readonly makeClock: ClockFactory;
  /** Made at the first arm, closed by stop(). */
  private clock: FrameClock | undefined;
  private armed = false;
  private immediate: NodeJS.Immediate | undefined;
  /** When the next frame is due; NaN while none is (a number field throughout: storing a time makes no heap number). */
  private wakeAt = NaN;
  private epoch = 0;
  private waiters: Waiter[] = [];
  private sending = false;
  /** Waiters of the frame with the sink, and that frame's number. */
  private sendingWaiters: readonly Waiter[] = NO_WAITERS;
  private sendingNumber = 0;
  /** The frame waiting for the sink to take it, its waiters and its number. */
  private pending: Frame | undefined;
  private pendingWaiters: readonly Waiter[] = NO_WAITERS;
  private pendingNumber = 0;
  private lastQueuedSeq = -1;
  private lastRenderAt = -Infinity;
  /** When the frame now with the sink was handed over (NaN while none is). */
  private sendingSince = NaN;
  private readonly counts: LoopStats;
  // Made once: a frame makes no closure for its timer or its send.
  private readonly onTimer = (): void => {
    this.armed = false;
    this.tick();
  };
  private readonly onSent = (ok: boolean): void => this.sent(ok);
  private readonly onSendFailed = (): void => this.sent(false);

  constructor(
    private readonly compositor: Compositor,
    private readonly sink: FrameSink,
    private readonly now: () => number = Date.now,
    options: LoopOptions = {},
  ) {
    const fps = options.fps && options.fps > 0 ? options.fps : 50;
    this.period = 1000 / fps;
    this.makeClock = options.clock ?? timeoutClock;
    this.counts = { fps, rendered: 0, sent: 0, dropped: 0, missed: 0, errors: 0 };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.epoch = this.now();
    this.tick(true);
  }

  stop(): void {
    this.running = false;
    this.clock?.close();
    this.clock = undefined;
    this.armed = false;
    this.wakeAt = NaN;
    // Nothing is drawn now: no decoder or browser page runs for it (they start again when drawn).
    this.compositor.suspendMedia?.();
  }

  /**
   * Content changed: draws a frame with the current state as soon as the event loop is
   * free and resolves with whether that frame (or a newer one) reached the output.
   */
  invalidate(): Promise<boolean> {
    return new Promise<boolean>((resolve) => this.wait((fate) => resolve(fate.ok)));
  }

  /** As invalidate(), resolving with the fate of the frame that carried the change to the output. */
  redraw(): Promise<FrameFate> {
    return new Promise<FrameFate>((resolve) => this.wait(resolve));
  }

  /** Frames rendered so far: the number of the last one. */
  get rendered(): number {
    return this.counts.rendered;
  }

  private wait(waiter: Waiter): void {
    this.waiters.push(waiter);
    if (this.immediate) return;
    // A burst of commands is drawn at most once per frame period: the first at once,
    // the rest together in the frame due one period after the last one drawn.
    const soonest = this.lastRenderAt + this.period;
    if (!this.running || this.now() >= soonest) {
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        this.tick(true);
      });
    } else if (!(this.wakeAt <= soonest)) {
      this.wakeAt = soonest;
      this.arm(soonest);
    }
  }

  stats(): LoopStats {
    return { ...this.counts };
  }

  /**
   * For the systemd watchdog: why the loop is not working, or undefined while it is. Idle
   * (nothing due) is working; stopped, a frame due more than `maxLagMs` ago and not drawn, or
   * a frame the sink has held for more than `maxLagMs` is not.
   */
  stalled(maxLagMs: number): string | undefined {
    if (!this.running) return 'stopped';
    const t = this.now();
    if (t - this.wakeAt > maxLagMs) return `a frame due ${Math.round(t - this.wakeAt)} ms ago was not drawn`;
    if (t - this.sendingSince > maxLagMs)
      return `the output has held a frame for ${Math.round(t - this.sendingSince)} ms`;
    return undefined;
  }

  private tick(forced = false): void {
    // A tick from invalidate() must not leave the armed timer running untracked: stop() could
    // not clear it, and it would draw (and start a video's decoder again) after the stop.
    this.disarm();
    const t = this.now();
    const due = this.wakeAt;
    if (!forced && t < due && this.waiters.length === 0) {
      // Timers may fire a little early; a clock must not change before its second.
      // (Changes waiting to be drawn are drawn now: their frame shows the time it is drawn at.)
      this.arm(due);
      return;
    }
    let at = t;
    if (!forced && !Number.isNaN(due)) {
      const late = t - due;
      if (late < this.period)
        at = due; // on time: draw the moment the frame stands for
      else this.counts.missed += Math.floor(late / this.period);
    }
    const waiters: readonly Waiter[] = this.waiters.length ? this.waiters : NO_WAITERS;
    if (waiters !== NO_WAITERS) this.waiters = [];
    let frame: Frame;
    try {
      frame = this.compositor.render(at);
    } catch (err) {
      // A timer callback that throws would end the process: count it, answer the
      // waiting confirmations with "not shown", and try again shortly.
      this.counts.errors++;
      this.counts.lastError = err instanceof Error ? err.message : String(err);
      // No frame carried anything: the number is that of the next frame, newer than every change so far.
      const fate: FrameFate = { ok: false, frame: this.counts.rendered + 1 };
      for (const w of waiters) w(fate);
      if (this.running) {
        this.wakeAt = at + RETRY_MS;
        this.arm(this.wakeAt);
      }
      return;
    }
    this.counts.rendered++;
    this.lastRenderAt = t;
    if (frame.seq !== this.lastQueuedSeq || waiters.length > 0) this.queue(frame, waiters, t);
    this.schedule(at);
  }

  private schedule(renderedAt: number): void {
    if (!this.running) return;
    let next = this.compositor.nextChange(renderedAt);
    if (next === Infinity) {
      this.wakeAt = NaN;
      this.disarm();
      return;
    }
    const earliest = renderedAt + this.period;
    if (next < earliest) {
      // Faster than the frame rate (scrolling): the next grid point, never drifting.
      const k = Math.ceil((earliest - this.epoch) / this.period - 1e-6);
      next = this.epoch + k * this.period;
    }
    this.wakeAt = next;
    this.arm(next);
  }

  private arm(at: number): void {
    (this.clock ??= this.makeClock(this.onTimer)).arm(Math.round((at - this.now()) * 1000));
    this.armed = true;
  }

  private disarm(): void {
    if (!this.armed) return;
    this.armed = false;
    this.clock!.disarm();
  }

  /** `t`: now, as the tick read it (a frame takes no second reading of the clock to be sent). */
  private queue(frame: Frame, waiters: readonly Waiter[], t: number): void {
    this.lastQueuedSeq = frame.seq;
    const number = this.counts.rendered;
    if (!this.sending) {
      this.send(frame, waiters, number, t);
      return;
    }
    if (this.pending) {
      if (this.pending.seq !== frame.seq) this.counts.dropped++;
      if (this.pendingWaiters.length) waiters = [...this.pendingWaiters, ...waiters];
      // The output never sees the replaced frame: the newer one carries its damage too.
      frame = mergeDamage(this.pending, frame);
    }
    this.pending = frame;
    this.pendingWaiters = waiters;
    this.pendingNumber = number;
  }

  private send(frame: Frame, waiters: readonly Waiter[], number: number, t: number): void {
    this.sending = true;
    this.sendingSince = t;
    this.sendingWaiters = waiters;
    this.sendingNumber = number;
    let done: boolean | Promise<boolean>;
    try {
      done = this.sink(frame);
    } catch {
      done = false;
    }
    if (typeof done === 'boolean') this.sent(done);
    else done.then(this.onSent, this.onSendFailed);
  }

  private sent(ok: boolean): void {
    if (ok) this.counts.sent++;
    const waiters = this.sendingWaiters;
    this.sendingWaiters = NO_WAITERS;
    if (waiters.length) {
      const fate: FrameFate = { ok, frame: this.sendingNumber };
      for (let i = 0; i < waiters.length; i++) waiters[i](fate);
    }
    this.sending = false;
    this.sendingSince = NaN;
    const next = this.pending;
    if (!next) return;
    const nextWaiters = this.pendingWaiters;
    this.pending = undefined;
    this.pendingWaiters = NO_WAITERS;
    this.send(next, nextWaiters, this.pendingNumber, this.now());
  }
}
