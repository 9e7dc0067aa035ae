// The service under systemd (Type=notify, WatchdogSec=): READY=1 once HTTP answers through the
// whole application (the runtime starts components after the units are open and blanked and
// the port listens, and answers 503 until its start has ended), STATUS= lines for
// `systemctl status`, and WATCHDOG=1 only while every unit's frame loop works and HTTP
// answers. Wanted only when systemd set NOTIFY_SOCKET or WATCHDOG_USEC, so it costs nothing
// when run by hand.
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { appStatus } from './http-probe.js';
import { livenessProblems } from './liveness.js';
import { nativeSdNotify, notifyEnv, socketNotifier, statusLine, type Notifier, type NotifyEnv } from './sd-notify.js';
import { statusText, type Phase } from './status-text.js';
import { BOOT } from '../capability/boot.js';

export const SYSTEMD_COMPONENT = 'systemd';

export interface SystemdOptions {
  env?: NotifyEnv;
  notifier?: Notifier;
  /** How often STATUS= is brought up to date (sent only when it changed). */
  statusEveryMs?: number;
  testHooks?: boolean;
}

export class SystemdNotify implements Component {
  readonly name = SYSTEMD_COMPONENT;
  private ctx: RuntimeContext | undefined;
  private notifier: Notifier | undefined;
  private readonly env: NotifyEnv;
  private phase: Phase = 'starting';
  private lastStatus = '';
  private withheld: string[] = [];
  private timers = new Set<unknown>();
  private problem: string | undefined;
  private lastSendError: string | undefined;
  private readonly counts = { watchdogSent: 0, watchdogWithheld: 0, statusSent: 0 };
  private readyAt: number | undefined;
  private checking = false;
  private readonly onStall = () => this.stallForTest();

  constructor(private readonly opts: SystemdOptions = {}) {
    this.env = opts.env ?? notifyEnv();
  }

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    if (!this.env.socket) {
      this.problem = 'WATCHDOG_USEC is set but NOTIFY_SOCKET is not: there is no one to notify';
      ctx.log.warn({}, this.problem);
      return;
    }
    const fn = this.opts.notifier ? undefined : nativeSdNotify();
    if (typeof fn === 'string') {
      // Soft: the service runs on; systemd's start timeout decides what happens to a Type=notify unit.
      this.problem = `cannot notify systemd: ${fn}`;
      ctx.log.warn({ socket: this.env.socket }, this.problem);
      return;
    }
    this.notifier = this.opts.notifier ?? socketNotifier(this.env.socket, fn!);
    this.refreshStatus();
    // The test-only switch: with MLDS_TEST_HOOKS=1, SIGUSR2 stops every frame loop (to trip the watchdog on purpose).
    if (this.opts.testHooks ?? process.env.MLDS_TEST_HOOKS === '1') process.on('SIGUSR2', this.onStall);
    if (this.env.watchdogMs) this.every(this.env.watchdogMs / 2, () => this.feedWatchdog());
    this.every(this.opts.statusEveryMs ?? 5000, () => this.refreshStatus());
    this.waitForHttp(50);
  }

  async reload(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    this.refreshStatus();
  }

  async stop(): Promise<void> {
    process.off('SIGUSR2', this.onStall);
    for (const t of this.timers) this.ctx?.clock.clearTimeout(t);
    this.timers.clear();
    if (this.notifier && this.phase !== 'stopping') {
      this.phase = 'stopping';
      this.send(`STOPPING=1\n${statusLine('stopping')}`);
    }
  }

  status(): unknown {
    return {
      socket: this.env.socket ?? null,
      watchdogSeconds: this.env.watchdogMs ? this.env.watchdogMs / 1000 : null,
      phase: this.phase,
      ...(this.readyAt ? { readyAt: new Date(this.readyAt).toISOString() } : {}),
      ...(this.problem ? { problem: this.problem } : {}),
      ...(this.lastSendError ? { lastSendError: this.lastSendError } : {}),
      lastStatus: this.lastStatus || null,
      ...(this.withheld.length ? { watchdogWithheldFor: this.withheld } : {}),
      ...this.counts,
    };
  }

  /**
   * Polls HTTP through the application with a doubling wait (at most 1 s) until it answers something other than 503.
   */
  private waitForHttp(waitMs: number): void {
    const ctx = this.ctx;
    if (!ctx || this.phase !== 'starting') return;
    void appStatus(ctx.ports().http, 5000).then((code) => {
      if (this.phase !== 'starting' || this.ctx !== ctx) return;
      if (code === undefined || code === 503)
        return void this.later(waitMs, () => this.waitForHttp(Math.min(waitMs * 2, 1000)));
      this.phase = 'running';
      this.readyAt = ctx.clock.now();
      const line = this.statusNow();
      this.lastStatus = line;
      this.send(`READY=1\n${statusLine(line)}`);
      ctx.log.info({ status: line }, 'systemd told: ready');
    });
  }

  private feedWatchdog(): void {
    const ctx = this.ctx;
    const period = this.env.watchdogMs;
    if (!ctx || !period || this.checking) return;
    this.checking = true;
    // A check that throws is a problem too: the watchdog is withheld, never fed by mistake.
    void livenessProblems(ctx, { maxLagMs: period / 2, httpTimeoutMs: period / 3 })
      .catch((err: Error) => [`liveness check failed: ${err.message}`])
      .then((problems) => {
        this.checking = false;
        if (this.ctx !== ctx || this.phase === 'stopping') return;
        const was = this.withheld.join('; ');
        this.withheld = problems;
        if (problems.length === 0) {
          this.counts.watchdogSent++;
          this.send('WATCHDOG=1');
          if (was) ctx.log.info({}, 'watchdog fed again: frame loops and HTTP work');
        } else {
          this.counts.watchdogWithheld++;
          if (problems.join('; ') !== was)
            ctx.log.error({ problems }, 'watchdog withheld: systemd will restart the service');
        }
        if (problems.join('; ') !== was) this.refreshStatus();
      });
  }

  private refreshStatus(): void {
    if (!this.ctx || this.phase === 'stopping') return;
    const line = this.statusNow();
    if (line === this.lastStatus) return;
    this.lastStatus = line;
    this.send(statusLine(line));
  }

  private statusNow(): string {
    const ctx = this.ctx!;
    let status;
    try {
      status = this.phase === 'running' ? ctx.status() : undefined;
    } catch {
      status = undefined;
    }
    const boot = ctx.component(BOOT)?.status();
    return statusText({
      phase: this.phase,
      port: ctx.ports().http,
      units: ctx.units().size,
      status,
      boot,
      watchdog: this.withheld,
    });
  }

  private send(message: string): void {
    const err = this.notifier?.send(message);
    if (message.startsWith('STATUS=') || message.includes('\nSTATUS=')) this.counts.statusSent++;
    if (err === this.lastSendError) return;
    this.lastSendError = err;
    if (err) this.ctx?.log.warn({ socket: this.env.socket, err }, 'sending to systemd failed');
  }

  /** MLDS_TEST_HOOKS=1 only: a frame loop that stops as a hung one would, for the watchdog test. */
  private stallForTest(): void {
    const ctx = this.ctx;
    if (!ctx) return;
    for (const unit of ctx.units().values()) unit.loop.stop();
    ctx.log.warn({ signal: 'SIGUSR2', units: [...ctx.units().keys()] }, 'test hook: every frame loop stopped');
  }

  private every(ms: number, fn: () => void): void {
    const tick = () => {
      fn();
      this.later(ms, tick);
    };
    this.later(ms, tick);
  }

  private later(ms: number, fn: () => void): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const t = ctx.clock.setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }
}
