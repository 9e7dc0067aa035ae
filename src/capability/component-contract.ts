// The seam between the running service and its capabilities (crons, pollers, the boot
// screens, brightness, mDNS, the network API...), after serialport's bindings-interface:
// a small interface, and each method says what the runtime guarantees and what it expects.
import type { AreaConfig, DisplayConfig, ServiceConfig } from '../config/types.js';
import type { ApplyResult, CommandSource } from '../control/control-types.js';
import type { Logger } from '../log/logger.js';
import type { Clock } from '../util/clock.js';
import type { ServiceProblem, Status } from './status-types.js';
import type { ArchiveLoadReport, ReloadReport } from '../config/diff.js';
import type { Unit } from '../render/unit.js';
import type { CapabilityKey } from './capability-key.js';

/** What a component may use of the running service. Every getter answers for the configuration running now. */
export interface RuntimeContext {
  readonly log: Logger;
  readonly clock: Clock;
  config(): ServiceConfig;
  /** The one control path: a cron's `data`, a poller's body and a replay go through it exactly like /mlds. */
  apply(query: string, source: CommandSource): Promise<ApplyResult>;
  /**
   * Sends a confirmation to the display's feedback address, for a command that never reached apply
   * (src/monitor/feedback.ts).
   */
  confirm(display: DisplayConfig, confirm: 0 | 1 | 2, inumber: string): void;
  /** Loads config.json again, as /reload_config does (rejects with MLDS_CONFIG_INVALID on faults). */
  reload(): Promise<ReloadReport>;
  /**
   * Downloads, checks and swaps in a configuration archive as GET /load_config?url= does (`sha256`: refused before
   * anything changes when the download's digest differs).
   */
  loadConfig(url: string, sha256?: string): Promise<ArchiveLoadReport>;
  /** The physical units now running, by unit key (each has its output runner, frame loop and overlay). */
  units(): ReadonlyMap<string, Unit>;
  /** The unit showing this display id. */
  unitFor(displayId: string): Unit | undefined;
  /** Another running component, by its key, as the key's type (undefined when the configuration does not want it). */
  component<T>(key: CapabilityKey<T>): T | undefined;
  /** The /status document as HTTP serves it now (the /info page renders from it). */
  status(): Status;
  /** The /info page (HTML) of the status now, as GET /info serves it (the page's code loads on first use). */
  infoPage(): Promise<string>;
  /** The last accepted request of each display id, as saved for the boot replay (unmasked: never log it). */
  savedRequests(): Record<string, string>;
  /** The ports the service answers on (https only when configured and listening). */
  ports(): { http: number; https?: number };
}

export interface Component {
  /** Short name for logs and /status ("crons", "recheck"). */
  readonly name: string;
  /**
   * Called once the units are open and blanked, before the saved requests are replayed.
   * Start timers, sockets and child processes here, never in a constructor. Resolve once
   * running; a rejection is logged and the service carries on without the component.
   */
  start(ctx: RuntimeContext): Promise<void>;
  /**
   * Called once the service has started: the saved requests are replayed (at the start), or at
   * once after `start` (a component a reload started). What it applies from now on is not
   * replaced by the boot replay; optional.
   */
  started?(): Promise<void>;
  /**
   * Called after a configuration swap (ctx.config() already returns the new one) with what
   * changed. Must leave the component as if it had been started on the new configuration.
   * Not called for a re-check that found nothing changed.
   */
  reload(ctx: RuntimeContext, report: ReloadReport): Promise<void>;
  /**
   * Called once at shutdown, or when the configuration no longer wants the component: end every timer, socket and child
   * process it started. Must not throw.
   */
  stop(): Promise<void>;
  /** Facts for /status (`components.<name>`); optional. */
  status?(): unknown;
  /** What a technician must see in /status `problems` (and on /info) while it lasts; optional. */
  problems?(): ServiceProblem[];
  /** Why an area it plays without drawing (audio) cannot play now: the area's /status `fault`; optional. */
  playFault?(display: string, area: AreaConfig): string | undefined;
}

/**
 * How the runtime finds a component: loaded (dynamic import) only when the configuration
 * wants it, so a capability that is not configured costs no memory and no start time. Made
 * only by `of`, where the compiler checks that what `load` gives has its key's type: the
 * runtime then hands it out by that key (RuntimeContext.component) as that type.
 */
export class ComponentEntry {
  private constructor(
    /** The key the component is registered under; the runtime finds it by this object. */
    readonly key: object,
    readonly name: string,
    readonly wanted: (config: ServiceConfig) => boolean,
    private readonly loader: () => Promise<Component>,
  ) {}

  static of<T>(
    key: CapabilityKey<T>,
    wanted: (config: ServiceConfig) => boolean,
    load: () => Promise<Component & NoInfer<T>>,
  ): ComponentEntry {
    return new ComponentEntry(key, key.name, wanted, load);
  }

  /** A component nobody looks up: its key is its entry's alone. */
  static named(
    name: string,
    wanted: (config: ServiceConfig) => boolean,
    load: () => Promise<Component>,
  ): ComponentEntry {
    return new ComponentEntry({ name }, name, wanted, load);
  }

  load(): Promise<Component> {
    return this.loader();
  }
}
