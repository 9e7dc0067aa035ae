// One light sensor as the service runs it: opens its link, reads it every pollMs, turns lux into
// a steady percent, and when the device goes away keeps its last value (with a warning) while it
// reconnects by itself. Its value counts for STALE_AFTER_MS after the last good reading; then
// the next source down takes over until readings come back.
import type { SensorConfig } from '../../config/types.js';
import type { Logger } from '../../log/logger.js';
import type { Clock } from '../../util/clock.js';
import { isoTime } from '../../util/clock.js';
import { LuxFilter, DEFAULT_CURVE } from './curve.js';
import type { LinkDeps, LuxLink } from './lux-link.js';
import { linkFor } from './open-link.js';

export const STALE_AFTER_MS = 10 * 60_000;
const RECONNECT_MIN_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
/** Failed reads in a row after which the link is closed and opened again. */
const REOPEN_AFTER_FAILURES = 3;
const MODBUS_TIMEOUT_MS = 1000;

export interface SensorDeps {
  clock: Clock;
  log: Logger;
  link: LinkDeps;
  /** The sensor's percent changed, or it connected or went away. */
  onChange(): void;
}

export interface SensorStatus {
  name: string;
  protocol: SensorConfig['protocol'];
  device: string;
  connected: boolean;
  lux?: number;
  percent?: number;
  lastReadingAt?: string;
  /** Whether its value counts now (a reading within the last STALE_AFTER_MS). */
  fresh: boolean;
  warning?: string;
  reconnects: number;
}

export class Sensor {
  private link: LuxLink | undefined;
  private readonly filter: LuxFilter;
  private timer: unknown;
  private gen = 0;
  private stopped = false;
  private connected = false;
  private openFailures = 0;
  private readFailures = 0;
  private reconnects = 0;
  private lastReadingAt: number | undefined;
  private problem: { message: string; since: number } | undefined;
  private where: string;

  /** `name` says where it is configured (`displays/led1/sensor`, `sensors/0`). */
  constructor(
    public name: string,
    readonly cfg: SensorConfig,
    private readonly deps: SensorDeps,
  ) {
    this.filter = new LuxFilter(cfg.curve ?? DEFAULT_CURVE);
    this.where = cfg.protocol === 'modbus-tcp' ? `${cfg.host}:${cfg.port ?? 502}` : (cfg.path ?? '');
  }

  start(): void {
    this.later(0, () => this.connect());
  }

  /** The percent this sensor asks for, while its last reading is fresh. */
  value(now: number): number | undefined {
    return this.fresh(now) ? this.filter.percent : undefined;
  }

  /** Until when the value counts without a new reading. */
  freshUntil(): number | undefined {
    return this.lastReadingAt === undefined ? undefined : this.lastReadingAt + STALE_AFTER_MS;
  }

  get lux(): number | undefined {
    return this.filter.lux;
  }

  status(now: number): SensorStatus {
    const holds =
      this.lastReadingAt !== undefined && this.fresh(now)
        ? `; the last value holds until ${isoTime(this.freshUntil())}`
        : '';
    const warning = this.problem ? `${this.problem.message} (since ${isoTime(this.problem.since)})${holds}` : undefined;
    return {
      name: this.name,
      protocol: this.cfg.protocol,
      device: this.link?.where ?? this.where,
      connected: this.connected,
      lux: this.filter.lux,
      percent: this.filter.percent,
      lastReadingAt: isoTime(this.lastReadingAt),
      fresh: this.fresh(now),
      ...(warning ? { warning } : {}),
      reconnects: this.reconnects,
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.gen++;
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
    await this.link?.close();
  }

  private fresh(now: number): boolean {
    return this.lastReadingAt !== undefined && now - this.lastReadingAt <= STALE_AFTER_MS;
  }

  private later(ms: number, fn: () => void): void {
    if (this.stopped) return;
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    const gen = this.gen;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined;
      if (gen === this.gen && !this.stopped) fn();
    }, ms);
  }

  private trouble(message: string): void {
    if (this.problem?.message !== message) this.problem = { message, since: this.deps.clock.now() };
  }

  private async connect(): Promise<void> {
    const gen = this.gen;
    try {
      this.link ??= await linkFor(this.cfg, this.deps.link);
      this.link.onLost((err) => this.lost(err));
      await this.link.open();
    } catch (err) {
      if (gen !== this.gen) return;
      const message = `cannot open ${this.link?.where ?? this.where}: ${(err as Error).message}`;
      if (this.openFailures++ === 0)
        this.deps.log.warn(
          { sensor: this.name, err: (err as Error).message },
          'light sensor cannot be opened; retrying',
        );
      this.trouble(message);
      await this.link?.close();
      this.later(Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(10, this.openFailures - 1)), () =>
        this.connect(),
      );
      return;
    }
    if (gen !== this.gen || this.stopped) {
      await this.link.close();
      return;
    }
    if (this.reconnects > 0 || this.openFailures > 0)
      this.deps.log.info({ sensor: this.name, device: this.link.where }, 'light sensor connected again');
    else this.deps.log.info({ sensor: this.name, device: this.link.where }, 'light sensor connected');
    this.connected = true;
    this.openFailures = 0;
    this.readFailures = 0;
    this.problem = undefined;
    this.deps.onChange();
    this.poll();
  }

  private poll(): void {
    const link = this.link,
      gen = this.gen;
    if (!link || !this.connected) return;
    // An answer is awaited at most one poll period (at least 250 ms, at most 1 s); an ascii sensor sends at its own
    // pace.
    const timeout =
      this.cfg.protocol === 'ascii'
        ? Math.max(2000, 2 * this.cfg.pollMs)
        : Math.max(250, Math.min(MODBUS_TIMEOUT_MS, this.cfg.pollMs));
    link.read(timeout).then(
      (lux) => {
        if (gen !== this.gen) return;
        const before = this.filter.percent;
        const wasFresh = this.fresh(this.deps.clock.now());
        this.filter.add(lux);
        this.lastReadingAt = this.deps.clock.now();
        this.readFailures = 0;
        this.problem = undefined;
        if (this.filter.percent !== before || !wasFresh) this.deps.onChange();
        this.later(this.cfg.pollMs, () => this.poll());
      },
      (err: Error) => {
        if (gen !== this.gen) return;
        this.readFailures++;
        this.trouble(`no good reading from ${link.where}: ${err.message}`);
        if (this.readFailures === 1)
          this.deps.log.warn({ sensor: this.name, err: err.message }, 'light sensor reading failed');
        if (this.readFailures >= REOPEN_AFTER_FAILURES) this.lost(err);
        else this.later(this.cfg.pollMs, () => this.poll());
      },
    );
  }

  /** The device went away (or stopped answering): keep the last value, reconnect. */
  private lost(err: Error): void {
    if (!this.connected || this.stopped) return;
    this.connected = false;
    this.gen++;
    this.reconnects++;
    this.trouble(`disconnected: ${err.message}; reconnecting`);
    this.deps.log.warn(
      { sensor: this.name, device: this.link?.where, err: err.message },
      'light sensor lost; the last value holds while it reconnects',
    );
    void this.link?.close();
    this.deps.onChange();
    this.later(RECONNECT_MIN_MS, () => this.connect());
  }
}
