// The `brightness` component: decides each physical unit's brightness by the precedence
// (precedence.ts) and applies it through the unit's output, only when it changes. A blanked unit's
// output is given 0 whatever was decided: the panel goes dark, its content and the decided level
// stay, and unblanking gives the output that level again.
import type { ServiceConfig } from '../config/types.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { BRIGHTNESS, type BrightnessControl } from '../capability/brightness.js';
import type { Unit } from '../render/unit.js';
import { applyBrightness } from './apply.js';
import { decide, type Decision } from './precedence.js';
import { ScheduleSource } from './schedule-source.js';
import type { LinkDeps } from './sensors/lux-link.js';
import { systemBinding } from './sensors/open-link.js';
import { MANUAL_BY, Sources } from './sources.js';
import { brightnessStatus, type BrightnessStatus, type UnitState } from './brightness-report.js';

export interface BrightnessOptions {
  /** Serial devices (tests pass @serialport/binding-mock). */
  link?: LinkDeps;
  urlPollMs?: number;
}

export class BrightnessComponent implements Component, BrightnessControl {
  readonly name = BRIGHTNESS.name;
  private ctx: RuntimeContext | undefined;
  private sources: Sources | undefined;
  private schedule: ScheduleSource | undefined;
  /** By MAIN id. */
  readonly units = new Map<string, UnitState>();
  /** MAIN ids of the blanked units (until unblanked or the service restarts, as a manual level). */
  private readonly blanked = new Set<string>();
  /** What each unit's output was last given; a replaced unit (new output) is a new key. */
  private applied = new WeakMap<Unit, number>();
  private timer: unknown;
  private pending: Promise<void> | undefined;
  private again = false;

  constructor(private readonly opts: BrightnessOptions = {}) {}

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    const changed = () => {
      void this.update();
    };
    this.schedule = new ScheduleSource(ctx.log, () => ctx.clock.now(), changed);
    this.sources = new Sources({
      clock: ctx.clock,
      log: ctx.log,
      link: this.opts.link ?? { binding: systemBinding },
      onChange: changed,
      urlPollMs: this.opts.urlPollMs,
    });
    await this.follow(ctx.config());
  }

  async reload(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    await this.follow(ctx.config());
  }

  async stop(): Promise<void> {
    if (this.ctx && this.timer !== undefined) this.ctx.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule?.stop();
    await this.sources?.stop();
    this.ctx = undefined;
  }

  status(): BrightnessStatus {
    return brightnessStatus(
      this.ctx!.config(),
      this.ctx!.clock.now(),
      this.units,
      this.schedule!,
      this.sources!,
      this.blanked,
    );
  }

  /** Blanks (or unblanks) the units whose MAIN ids are given and resolves once their outputs have the level. */
  async setBlank(mainIds: string[], blank: boolean): Promise<void> {
    for (const id of mainIds) {
      if (blank) this.blanked.add(id);
      else this.blanked.delete(id);
    }
    this.ctx!.log.info({ units: mainIds }, blank ? 'panel blanked' : 'panel unblanked');
    await this.update();
  }

  isBlanked(mainId: string): boolean {
    return this.blanked.has(mainId);
  }

  /**
   * Sets a manual brightness on the units whose MAIN ids are given (checked by the caller:
   * MAIN ids with sensorBrightness true) and resolves once every unit has been given its value.
   * `by` is who set it, as /status tells.
   */
  async setManual(mainIds: string[], value: number, by: 'http' | 'home-assistant' = 'http'): Promise<void> {
    const at = this.ctx!.clock.now();
    for (const id of mainIds) this.sources!.manual.set(id, { value, at, by });
    this.ctx!.log.info({ units: mainIds, value }, `manual brightness ${MANUAL_BY[by]}`);
    await this.update();
  }

  /**
   * A fleet's level on the units whose MAIN ids are given (any unit: no sensorBrightness needed); undefined gives them
   * back to their sources ("auto").
   */
  async setFleetLevel(mainIds: string[], value: number | undefined): Promise<void> {
    const at = this.ctx!.clock.now();
    for (const id of mainIds) {
      if (value === undefined) this.sources!.manual.delete(id);
      else this.sources!.manual.set(id, { value, at, by: 'fleet' });
    }
    this.ctx!.log.info({ units: mainIds, value: value ?? 'auto' }, 'brightness set by a fleet admin command');
    await this.update();
  }

  private async follow(config: ServiceConfig): Promise<void> {
    this.schedule!.configure(config);
    await this.sources!.sync(config);
    for (const id of [...this.units.keys()])
      if (!config.units.some((u) => u.displayIds[0] === id)) this.units.delete(id);
    for (const id of [...this.blanked]) if (!config.units.some((u) => u.displayIds[0] === id)) this.blanked.delete(id);
    await this.update();
  }

  /** Decides every unit now; calls that arrive meanwhile are folded into one more pass. */
  update(): Promise<void> {
    if (this.pending) {
      this.again = true;
      return this.pending;
    }
    this.pending = (async () => {
      do {
        this.again = false;
        await this.decideAll();
      } while (this.again && this.ctx);
    })().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async decideAll(): Promise<void> {
    const ctx = this.ctx;
    if (!ctx) return;
    const config = ctx.config(),
      now = ctx.clock.now();
    let next = this.sources!.nextStale(now);
    const runtimeUnits = [...ctx.units().values()];
    for (const u of config.units) {
      const main = config.displayById.get(u.displayIds[0])!;
      const decision = decide(this.sources!.candidates(u, main, this.schedule!, now));
      const prev = this.units.get(main.id);
      const state: UnitState = {
        decision,
        since: prev && prev.decision.mode === decision.mode ? prev.since : now,
        handoverSince: decision.handover
          ? prev?.decision.handover?.from === decision.handover.from
            ? prev.handoverSince
            : now
          : undefined,
        applied: prev?.applied,
      };
      this.units.set(main.id, state);
      this.logChange(main.id, prev?.decision, decision);
      const unit = runtimeUnits.find((r) => r.config.displayIds[0] === main.id);
      const previous = unit ? this.applied.get(unit) : undefined;
      const percent = this.blanked.has(main.id) ? 0 : decision.percent;
      if (unit && previous !== percent) {
        this.applied.set(unit, percent);
        await applyBrightness(unit, percent, now, previous);
        state.applied = percent;
      }
      if (decision.mode === 'schedule' || decision.mode === 'daylight') {
        const at = this.schedule!.state(now)?.state.nextCheckAt;
        if (at !== undefined) next = Math.min(next ?? Infinity, at);
      }
    }
    this.arm(next);
  }

  private logChange(id: string, before: Decision | undefined, now: Decision): void {
    const log = this.ctx!.log;
    if (before?.mode === now.mode && before.percent === now.percent) return;
    if (before && before.mode !== now.mode && now.handover && before.handover?.from !== now.handover.from) {
      log.warn(
        { unit: id, from: now.handover.from, to: now.mode, reason: now.handover.reason, brightness: now.percent },
        'brightness source failed; the next one takes over',
      );
    } else if (before && before.mode !== now.mode) {
      log.info({ unit: id, from: before.mode, to: now.mode, brightness: now.percent }, 'brightness source changed');
    } else if (!before) {
      log.info({ unit: id, mode: now.mode, brightness: now.percent, source: now.source }, 'brightness');
    }
  }

  private arm(at: number | undefined): void {
    const ctx = this.ctx!;
    if (this.timer !== undefined) ctx.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (at === undefined) return;
    // Already due (time moved on while the outputs were being set): decide again in this pass.
    if (at <= ctx.clock.now()) {
      this.again = true;
      return;
    }
    this.timer = ctx.clock.setTimeout(
      () => {
        this.timer = undefined;
        void this.update();
      },
      Math.max(0, at - ctx.clock.now()),
    );
  }
}

/** The registry's entry point (src/runtime/components.ts imports this lazily). */
export function brightnessComponent(opts?: BrightnessOptions): BrightnessComponent {
  return new BrightnessComponent(opts);
}
