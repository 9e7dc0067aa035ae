// The configuration's crons: each entry's next second computed with the `cron` package
// (6 fields, the configured timezone) and waited for on the runtime's clock, so a test's
// FakeClock fires them; what each type does is in cron-tasks.ts.
import { CronTime } from 'cron';
import type { CronConfig, ServiceConfig } from '../config/types.js';
import type { Component } from '../capability/component-contract.js';
import { ConfigEntries } from './config-entries.js';
import { cronTarget, runCronTask } from './cron-tasks.js';
import { isoTime } from '../util/clock.js';
import { clockHeld } from '../time/clock-guard.js';

/**
 * The longest single wait. A unit without a clock battery boots with a wrong time and NTP
 * steps it later: waking at least once a minute re-reads the wall clock, so a cron neither
 * sleeps through a step forward (it runs once, late) nor waits out a step backward.
 */
const MAX_SLEEP_MS = 60_000;

export interface CronJobStatus {
  cron: string;
  type: CronConfig['type'];
  /** The URL (without query values) or query (keys masked) it acts on. */
  target: string;
  format?: 'html' | 'json';
  nextRunAt?: string;
  lastRunAt?: string;
  lastResult?: 'ok' | 'error';
  message?: string;
  running: boolean;
  runs: number;
  /** Times it was due while its previous run had not finished. */
  skipped: number;
}

interface Job {
  config: CronConfig;
  /** Its place in config.json's `crons`, for log lines and error fields. */
  index: number;
  time?: CronTime;
  nextAt?: number;
  timer?: unknown;
  run?: Promise<void>;
  abort?: AbortController;
  lastRunAt?: number;
  lastResult?: 'ok' | 'error';
  message?: string;
  runs: number;
  skipped: number;
}

/** A cron bound to an hour or a day (not an every-N interval): it holds while the clock is not set. */
export function timeOfDay(cron: string): boolean {
  const f = cron.trim().split(/\s+/);
  const fields = f.length === 6 ? f.slice(2) : f.slice(1);
  return fields.some((x) => x !== '*' && x !== '?' && !x.startsWith('*/'));
}

const sameEntry = (a: CronConfig, b: CronConfig) =>
  a.type === b.type && a.cron === b.cron && a.value === b.value && a.format === b.format;

/** Entries that stay across a reload keep their history and a run under way; their next second is computed again. */
export class Crons extends ConfigEntries<CronConfig, Job> {
  readonly name = 'crons';

  protected listOf(config: ServiceConfig): CronConfig[] {
    return config.crons;
  }
  protected same(a: CronConfig, b: CronConfig): boolean {
    return sameEntry(a, b);
  }
  protected running(job: Job): Promise<void> | undefined {
    return job.run;
  }

  protected begin(config: CronConfig, index: number): Job {
    const job: Job = { config, index, runs: 0, skipped: 0 };
    this.arm(job);
    return job;
  }

  protected keep(job: Job, config: CronConfig, index: number): void {
    this.disarm(job);
    Object.assign(job, { config, index, time: undefined, nextAt: undefined });
    this.arm(job);
  }

  protected end(job: Job): void {
    this.disarm(job);
    job.abort?.abort();
  }

  status(): { crons: CronJobStatus[] } {
    return {
      crons: this.entries.map((j) => ({
        cron: j.config.cron,
        type: j.config.type,
        target: cronTarget(j.config),
        ...(j.config.type === 'sendInfo' ? { format: j.config.format } : {}),
        nextRunAt: isoTime(j.nextAt),
        lastRunAt: isoTime(j.lastRunAt),
        lastResult: j.lastResult,
        message: j.message,
        running: j.run !== undefined,
        runs: j.runs,
        skipped: j.skipped,
      })),
    };
  }

  /** Waits for the job's next second (strictly after now), in steps of at most MAX_SLEEP_MS. */
  private arm(job: Job): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const now = ctx.clock.now();
    let next: number;
    try {
      job.time ??= new CronTime(job.config.cron);
      next = job.time.getNextDateFrom(new Date(now), ctx.config().timezone).toMillis();
    } catch (err) {
      // The configuration checks both; a zone the system lacks can still get here.
      job.lastResult = 'error';
      job.message = `cannot be scheduled: ${(err as Error).message}`;
      ctx.log.warn({ cron: job.index, schedule: job.config.cron, err: job.message }, 'cron cannot be scheduled');
      return;
    }
    // Normally equal; earlier when the wall clock was stepped back since the last wait.
    if (job.nextAt === undefined || next < job.nextAt) job.nextAt = next;
    job.timer = ctx.clock.setTimeout(() => this.wake(job), Math.min(job.nextAt - now, MAX_SLEEP_MS));
  }

  private disarm(job: Job): void {
    if (job.timer !== undefined) this.ctx?.clock.clearTimeout(job.timer);
    job.timer = undefined;
  }

  private wake(job: Job): void {
    job.timer = undefined;
    if (!this.ctx || !this.entries.includes(job)) return;
    if (job.nextAt !== undefined && this.ctx.clock.now() >= job.nextAt) {
      job.nextAt = undefined;
      this.fire(job);
    }
    this.arm(job);
  }

  private fire(job: Job): void {
    const ctx = this.ctx!;
    const facts = { cron: job.index, schedule: job.config.cron, type: job.config.type, target: cronTarget(job.config) };
    if (job.run) {
      job.skipped++;
      ctx.log.warn({ ...facts, skipped: job.skipped }, 'cron skipped: its previous run has not finished');
      return;
    }
    const held = timeOfDay(job.config.cron) ? clockHeld(ctx.clock.now()) : undefined;
    if (held) {
      job.lastResult = 'error';
      job.message = `held: ${held}`;
      ctx.log.warn({ ...facts }, 'cron held: the clock is not set');
      return;
    }
    const started = ctx.clock.now();
    job.lastRunAt = started;
    job.runs++;
    const abort = new AbortController();
    job.abort = abort;
    job.run = runCronTask(job.config, ctx, abort.signal, `crons/${job.index}/value`)
      .then(
        (message) => {
          job.lastResult = 'ok';
          job.message = message;
          ctx.log.info({ ...facts, result: message, ms: ctx.clock.now() - started }, 'cron ran');
        },
        (err: Error) => {
          job.lastResult = 'error';
          job.message = err.message;
          ctx.log.warn(
            { ...facts, err: err.message, code: (err as { code?: string }).code, ms: ctx.clock.now() - started },
            'cron failed',
          );
        },
      )
      .finally(() => {
        job.run = undefined;
        job.abort = undefined;
      });
  }
}

export function cronsComponent(): Component {
  return new Crons();
}
