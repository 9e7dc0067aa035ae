import { ConfigError } from '../config/faults.js';
import { loadServiceConfig } from './load-config.js';
import type { AreaConfig, ServiceConfig } from '../config/types.js';
import { Controller, restoreLevels } from '../control/controller.js';
import type { ControlDeps } from '../control/control-types.js';
import type { StateStore } from '../control/store.js';
import { credentialNames } from '../control/credentials.js';
import { MldsError } from '../errors.js';
import { countConfirmation } from '../control/counters.js';
import type { Logger } from '../log/logger.js';
import type { ConfigStatus } from './status-document.js';
import type { ServiceProblem, Status } from '../capability/status-types.js';
import { forgetImages, preloadImage, setPictureLimit } from '../render/images.js';
import type { Clock } from '../util/clock.js';
import type { Component, ComponentEntry, RuntimeContext } from '../capability/component-contract.js';
import type { CapabilityKey } from '../capability/capability-key.js';
import {
  diffDisplays,
  displayFingerprints,
  serviceFingerprint,
  unitFingerprint,
  type ArchiveLoadReport,
  type ReloadReport,
} from '../config/diff.js';
import { Unit } from '../render/unit.js';
import { setFetchUnitName } from '../fetch/user-agent.js';
import { hostname } from 'node:os';

export interface RuntimeDeps {
  configFile: string;
  /** The unit's own part (unit.json in the state directory), merged over configFile at every load. */
  unitFile?: string;
  clock: Clock;
  log: Logger;
  store: StateStore;
  /** Sends confirmations (FeedbackSender.confirm). */
  confirm: ControlDeps['confirm'];
  /** Capabilities that run with the service, loaded only when the configuration wants them. */
  components: ComponentEntry[];
  /** Displays that left or whose unit was replaced: their live views must end. */
  onDisplaysGone?(ids: string[]): void;
  /** Takes a shown.log line per change of what an area shows (src/control/layers.ts). */
  shown?(line: string): void;
}

/**
 * The running configuration: its units, the controller, the replay policy, reloads and the
 * capabilities registered as components. A reload touches only what changed: an unchanged
 * display keeps its unit, output and frames; a changed one re-applies its current command;
 * a removed one is blanked and closed; a new one is blanked, then replayed.
 */
/** What main.ts composes after the runtime: the /status document, the ports, the archive loader. */
export interface RuntimeReport {
  status(): Status;
  ports(): { http: number; https?: number };
  loadConfig(url: string, sha256?: string): Promise<ArchiveLoadReport>;
}

export class Runtime {
  config: ServiceConfig;
  readonly controller: Controller;
  readonly units = new Map<string, Unit>();
  readonly configStatus: ConfigStatus;
  private readonly unitOf = new Map<string, Unit>();
  private prints: Map<string, string>;
  private servicePrint: string;
  private readonly running = new Map<string, Component>();
  private swapping = false;
  private started = false;
  private reloading: Promise<ReloadReport> | undefined;
  readonly context: RuntimeContext;
  /** Set by main once HTTP exists: the /status document and the listening ports. */
  private report: RuntimeReport | undefined;

  constructor(
    first: ServiceConfig,
    private readonly deps: RuntimeDeps,
  ) {
    const now = deps.clock.now();
    this.config = first;
    setPictureLimit(first.limits.maxPictureMegapixels);
    setFetchUnitName(first.mqtt?.unit ?? hostname());
    this.configStatus = {
      file: deps.configFile,
      unitFile: deps.unitFile,
      digests: first.digests,
      loadedAt: now,
      generation: 1,
      lastAttemptAt: now,
      faults: [],
    };
    this.prints = displayFingerprints(first);
    this.servicePrint = serviceFingerprint(first);
    this.controller = new Controller(first, {
      clock: deps.clock,
      store: deps.store,
      log: deps.log,
      redraw: (id) => this.unitOf.get(id)?.loop.redraw() ?? Promise.resolve({ ok: false, frame: 0 }),
      rendered: (id) => this.unitOf.get(id)?.loop.rendered ?? 0,
      confirm: (display, confirm, inumber) => {
        countConfirmation(confirm);
        deps.confirm(display, confirm, inumber);
      },
      preload: preloadImage,
      credentialNames: () => credentialNames(this.config),
      shown: deps.shown,
    });
    this.context = {
      log: deps.log,
      clock: deps.clock,
      config: () => this.config,
      apply: (query, source) => this.controller.apply(query, source),
      confirm: (display, confirm, inumber) => {
        countConfirmation(confirm);
        deps.confirm(display, confirm, inumber);
      },
      reload: () => this.reload(),
      loadConfig: (url, sha256) => {
        if (!this.report) throw new Error('a configuration archive asked for before HTTP was composed');
        return this.report.loadConfig(url, sha256);
      },
      units: () => this.units,
      unitFor: (id) => this.unitOf.get(id),
      component: (key) => this.component(key),
      status: () => {
        if (!this.report) throw new Error('status asked before HTTP was composed');
        return this.report.status();
      },
      infoPage: async () => (await import('../http/info/page.js')).renderInfoPage(this.context.status()),
      ports: () => this.report?.ports() ?? { http: this.config.port },
      savedRequests: () =>
        Object.fromEntries(Object.entries(deps.store.get().lastRequest).map(([id, rec]) => [id, rec.query])),
    };
  }

  /** True once started and while no swap is under way (HTTP answers 503 otherwise). */
  ready(): boolean {
    return this.started && !this.swapping;
  }

  /** main.ts: where components read /status and the listening ports from. */
  reportWith(report: RuntimeReport): void {
    this.report = report;
  }

  /** A running component by its key, as the key's type, for HTTP routes that drive one (/identify, /brightness...). */
  component<T>(key: CapabilityKey<T>): T | undefined {
    const entry = this.deps.components.find((e) => e.key === key);
    // Only ComponentEntry.of registers under a key, once the compiler saw the key's type in what it loads.
    return entry && (this.running.get(entry.name) as (Component & T) | undefined);
  }

  unitFor(displayId: string): Unit | undefined {
    return this.unitOf.get(displayId);
  }

  /** Opens and blanks every unit, starts the components, replays the saved requests. */
  async start(): Promise<void> {
    await Promise.all(this.config.units.map((u) => this.addUnit(u)));
    await this.syncComponents(undefined);
    await this.replaySaved(this.config.displays.map((d) => d.id));
    this.started = true;
    for (const c of this.running.values()) await this.startedHook(c);
  }

  private async startedHook(c: Component): Promise<void> {
    try {
      await c.started?.();
    } catch (err) {
      this.deps.log.warn({ component: c.name, err: (err as Error).message }, 'component failed once started');
    }
  }

  /** Loads config.json again. Serialized: a reload asked for during a reload shares it. */
  reload(): Promise<ReloadReport> {
    this.reloading ??= this.reloadNow().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const c of [...this.running.values()].reverse()) await this.stopComponent(c);
    this.running.clear();
    this.controller.dispose();
    await Promise.all([...this.units.values()].map((u) => u.stop()));
  }

  /** The problems the running components report now. */
  componentProblems(): ServiceProblem[] {
    return [...this.running.values()].flatMap((c) => c.problems?.() ?? []);
  }

  /** Why an area a running component plays without drawing (audio) cannot play now. */
  playFault(display: string, area: AreaConfig): string | undefined {
    for (const c of this.running.values()) {
      const fault = c.playFault?.(display, area);
      if (fault !== undefined) return fault;
    }
    return undefined;
  }

  /** Facts of each running component for /status. */
  componentStatus(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, c] of this.running) out[name] = c.status?.() ?? { running: true };
    return out;
  }

  private async reloadNow(): Promise<ReloadReport> {
    const { clock, log } = this.deps;
    this.configStatus.lastAttemptAt = clock.now();
    let next: ServiceConfig;
    try {
      next = loadServiceConfig(this.deps.configFile, this.deps.unitFile);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      this.configStatus.faults = err.faults;
      this.configStatus.faultTotal = err.total;
      log.warn({ faults: err.faults }, 'configuration has faults; the running one stays');
      throw new MldsError(
        'MLDS_CONFIG_INVALID',
        `${this.deps.configFile} has ${err.total} fault(s); the running configuration stays`,
        undefined,
        { faults: err.faults },
      );
    }
    this.configStatus.faults = [];
    this.configStatus.faultTotal = undefined;
    // Every load that succeeds: a file the displays do not show (the brightness schedule) changes the digest alone.
    this.configStatus.digests = next.digests;
    const prints = displayFingerprints(next);
    const servicePrint = serviceFingerprint(next);
    const d = diffDisplays(this.prints, prints);
    const report: ReloadReport = {
      changed: servicePrint !== this.servicePrint || d.unchanged.length !== prints.size || d.removed.length > 0,
      ...d,
    };
    if (!report.changed) return report;
    this.swapping = true;
    try {
      await this.swap(next, report);
    } finally {
      this.swapping = false;
    }
    this.prints = prints;
    this.servicePrint = servicePrint;
    this.configStatus.loadedAt = clock.now();
    this.configStatus.generation++;
    log.info(
      {
        added: report.added,
        changed: report.changedDisplays,
        removed: report.removed,
        unchanged: report.unchanged.length,
      },
      'configuration swapped',
    );
    await this.syncComponents(report);
    return report;
  }

  private async swap(next: ServiceConfig, report: ReloadReport): Promise<void> {
    const keep = new Set(report.unchanged);
    // What the changed displays show now, to show it again on their new layouts.
    const current = new Map(report.changedDisplays.map((id) => [id, this.controller.saved(id)]));
    const nextUnits = new Map(next.units.map((u) => [u.key, u]));
    const gone: string[] = [...report.removed];
    const fresh: typeof next.units = [];
    for (const [key, unit] of this.units) {
      const u = nextUnits.get(key);
      if (u && unitFingerprint(u) === unitFingerprint(unit.config)) continue;
      // Its panel left the configuration, or its output or size changed: empty it and let go.
      gone.push(...unit.config.displayIds.filter((id) => !gone.includes(id)));
      this.units.delete(key);
      for (const id of unit.config.displayIds) if (this.unitOf.get(id) === unit) this.unitOf.delete(id);
      await unit.stop(true);
    }
    this.deps.onDisplaysGone?.(gone);
    if (report.changedDisplays.length || report.added.length) forgetImages();
    this.config = next;
    setPictureLimit(next.limits.maxPictureMegapixels);
    setFetchUnitName(next.mqtt?.unit ?? hostname());
    this.controller.reconfigure(next, keep);
    for (const u of next.units) {
      const unit = this.units.get(u.key);
      if (unit) {
        unit.reconfigure(u, next, keep);
        for (const id of u.displayIds) this.unitOf.set(id, unit);
      } else fresh.push(u);
    }
    await Promise.all(fresh.map((u) => this.addUnit(u)));
    for (const [id, levels] of current) {
      if (!next.displayById.has(id)) continue;
      try {
        await restoreLevels(this.controller, id, levels, 'reload', this.deps.clock.now(), this.deps.log);
      } catch (err) {
        this.deps.log.warn(
          { id, err: (err as Error).message },
          'the current command no longer fits the changed display; it stays blank',
        );
      }
    }
    await this.replaySaved(report.added);
  }

  private async addUnit(u: ServiceConfig['units'][number]): Promise<void> {
    const unit = new Unit(
      u,
      this.config,
      (id) => this.controller.state(id),
      this.deps.log,
      () => this.deps.clock.now(),
    );
    this.units.set(u.key, unit);
    for (const id of u.displayIds) this.unitOf.set(id, unit);
    // Every panel shows black before anything else (the specification's restart rule).
    await unit.start();
  }

  /**
   * The boot replay (and a display added by a reload): the last accepted request of each id, when its startScreen wants
   * it.
   */
  private async replaySaved(ids: string[]): Promise<void> {
    const saved = this.deps.store.get();
    for (const id of ids) {
      const d = this.config.displayById.get(id);
      const base = saved.lastRequest[id]?.query;
      const layers = saved.layers[id] ?? [];
      if (!d || (base === undefined && !layers.length) || !d.startScreen.loadLastRequest) continue;
      try {
        // Each priority level with the time it had left (one that ended while the service was down is not shown).
        await restoreLevels(this.controller, id, { base, layers }, 'replay', this.deps.clock.now(), this.deps.log);
      } catch (err) {
        this.deps.log.warn(
          { id, err: (err as Error).message },
          'the saved request no longer fits the configuration; display stays blank',
        );
      }
    }
  }

  /**
   * Starts the components the configuration wants, stops the ones it no longer wants, tells the rest about the reload.
   */
  private async syncComponents(report: ReloadReport | undefined): Promise<void> {
    for (const entry of this.deps.components) {
      const wanted = entry.wanted(this.config);
      const running = this.running.get(entry.name);
      if (running && !wanted) {
        this.running.delete(entry.name);
        await this.stopComponent(running);
      } else if (running && report) {
        await running
          .reload(this.context, report)
          .catch((err: Error) =>
            this.deps.log.warn({ component: entry.name, err: err.message }, 'component reload failed'),
          );
      } else if (!running && wanted) {
        try {
          const c = await entry.load();
          await c.start(this.context);
          this.running.set(entry.name, c);
          if (this.started) await this.startedHook(c);
        } catch (err) {
          this.deps.log.warn(
            { component: entry.name, err: (err as Error).message },
            'component failed to start; the service runs without it',
          );
        }
      }
    }
  }

  private async stopComponent(c: Component): Promise<void> {
    try {
      await c.stop();
    } catch (err) {
      this.deps.log.warn({ component: c.name, err: (err as Error).message }, 'component failed to stop');
    }
  }
}
