import type { DisplayConfig, ServiceConfig } from '../config/types.js';
import { MldsError } from '../errors.js';
import type { Clock } from '../util/clock.js';
import { countCommand } from '../monitor/counters.js';
import { publishStateChange } from './changes.js';
import { parseCommand, type Command } from './command.js';
import { maskQuery } from './credentials.js';
import { defaultContent, requestedContent, sameContent, type Overrides } from './content.js';
import { lenientField } from './lenient.js';
import { emptyDisplayState, type AreaState, type DisplayState, type FaultRecord } from './state.js';
import type { StateStore } from './store.js';

export type CommandSource = 'http' | 'cron' | 'poller' | 'replay' | 'reload' | 'mqtt';

export interface ControlLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ControlDeps {
  clock: Clock;
  store: StateStore;
  log: ControlLog;
  /** Draws the unit showing this display; resolves true when that frame reached its output. */
  redraw(displayId: string): Promise<boolean>;
  /** Sends a confirmation to the display's feedback address (deduplicated and retried there). */
  confirm(display: DisplayConfig, confirm: 0 | 1 | 2, inumber: string): void;
  /** Decodes a picture before it is committed, so a broken file is caught here, not on screen. */
  preload(file: string): Promise<unknown>;
  /** Names of query values that carry credentials (never stored or replayed). */
  credentialNames?(): string[];
}

export interface ApplyResult {
  displayId: string;
  layout: string;
  inumber?: string;
  ignored: string[];
  /** Resolves true once the new content reached the display's output. */
  written: Promise<boolean>;
  /**
   * Set while the command's state journal line waits for the end of this turn of the event
   * loop (written together with the others of the turn): an acknowledgment waits for it.
   */
  stored?: Promise<void>;
}

const RECENT_FAULTS = 20;

/**
 * Control messages -> display state. The one path for HTTP, crons, pollers and the boot
 * replay: validate completely first, so a faulty message changes nothing, then commit.
 */
export class Controller {
  private states = new Map<string, DisplayState>();
  private timers = new Map<string, unknown>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Faults of messages whose display could not be told (unknown or missing id). */
  readonly recentFaults: FaultRecord[] = [];

  constructor(private config: ServiceConfig, private readonly deps: ControlDeps) {
    for (const d of config.displays) this.states.set(d.id, emptyDisplayState(d.id));
  }

  state(id: string): DisplayState {
    let s = this.states.get(id);
    if (!s) { s = emptyDisplayState(id); this.states.set(id, s); }
    return s;
  }

  /**
   * Validates and applies one control message. Throws MldsError (and sends confirm=2) when
   * it is faulty; otherwise resolves once the state is committed, before the panel is written.
   */
  apply(raw: string, source: CommandSource): Promise<ApplyResult> {
    // Serialized so two messages for one display commit in arrival order, whatever their picture loads take.
    const run = this.queue.then(() => this.applyNow(raw, source));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async applyNow(raw: string, source: CommandSource): Promise<ApplyResult> {
    const now = this.deps.clock.now();
    let cmd: Command;
    try {
      cmd = parseCommand(raw, this.config, this.deps.credentialNames?.());
    } catch (err) {
      if (err instanceof MldsError) this.recordFault(raw, err, source, now);
      countCommand(source, 'fault');
      throw err;
    }
    const st = this.state(cmd.display.id);
    const next = await this.buildAreas(cmd, st, now);
    // Commit: from here nothing can fail.
    if (st.layout !== cmd.layout.name) st.layoutSetAt = now;
    st.layout = cmd.layout.name;
    st.areas = next;
    st.version++;
    st.lastCommand = { query: cmd.query, at: now, inumber: cmd.inumber, source };
    st.lastIgnored = cmd.ignored.length ? cmd.ignored : undefined;
    this.scheduleExpiry(cmd.display.id);
    countCommand(source, 'ok');
    this.announce(cmd.display.id);
    // In the kernel before the command is answered (`stored`); the store reports its own failures.
    const stored = source === 'replay' ? undefined : this.deps.store.noteLastRequest(cmd.display.id, st.lastCommand);
    // An HTTP command is logged once, on its request line (src/http); other sources here.
    if (source !== 'http') this.deps.log.info({ id: cmd.display.id, layout: cmd.layout.name, inumber: cmd.inumber, source, ignored: cmd.ignored }, 'command applied');
    const written = this.deps.redraw(cmd.display.id);
    const inumber = cmd.inumber;
    if (inumber !== undefined && source !== 'replay' && source !== 'reload') {
      void written.then((ok) => this.deps.confirm(cmd.display, ok ? 1 : 0, inumber));
    }
    return { displayId: cmd.display.id, layout: cmd.layout.name, inumber: cmd.inumber, ignored: cmd.ignored, written, stored };
  }

  private async buildAreas(cmd: Command, st: DisplayState, now: number): Promise<Map<string, AreaState>> {
    const sameLayout = st.layout === cmd.layout.name;
    const next = new Map<string, AreaState>();
    for (const area of cmd.layout.areas) {
      const o: Overrides = { fontColor: cmd.fontColor.get(area.id), fontSize: cmd.fontSize.get(area.id) };
      const given = cmd.areas.get(area.id);
      let content = given ? requestedContent(given, o, now) : defaultContent(area, o, now);
      // Only pictures are loaded first; the other areas cost no turn of the event loop.
      if (content.area.type === 'image' && content.file) content = await this.loadable(content, content.file, o, now);
      const old = sameLayout ? st.areas.get(area.id) : undefined;
      if (old && sameContent(old, content)) {
        old.expiresAt = content.expiresAt;
        content = old;
      }
      next.set(area.id, content);
    }
    return next;
  }

  /** A picture that cannot be decoded falls back to the defaultValue, then to blank; the fault stays visible. */
  private async loadable(content: AreaState, file: string, o: Overrides, now: number): Promise<AreaState> {
    try {
      await this.deps.preload(file);
      return content;
    } catch (err) {
      const fault = `${content.file}: ${(err as Error).message}`;
      this.deps.log.warn({ area: content.area.id, fault }, 'picture cannot be shown');
      const fallback = content.source === 'request' ? defaultContent(content.area, o, now) : { area: content.area, source: 'none' as const, setAt: now };
      if (fallback.file && fallback.file !== content.file) {
        try { await this.deps.preload(fallback.file); } catch { return { area: content.area, source: 'none', setAt: now, fault }; }
      }
      return { ...fallback, fault };
    }
  }

  private scheduleExpiry(id: string): void {
    const clock = this.deps.clock;
    const old = this.timers.get(id);
    if (old !== undefined) clock.clearTimeout(old);
    this.timers.delete(id);
    const st = this.state(id);
    let next = Infinity;
    for (const a of st.areas.values()) if (a.expiresAt !== undefined) next = Math.min(next, a.expiresAt);
    if (next === Infinity) return;
    this.timers.set(id, clock.setTimeout(() => this.expire(id), Math.max(0, next - clock.now())));
  }

  /** ttl over: each expired area shows its defaultValue, or nothing. */
  private expire(id: string): void {
    this.timers.delete(id);
    const now = this.deps.clock.now();
    const st = this.state(id);
    let changed = false;
    for (const [areaId, a] of st.areas) {
      if (a.expiresAt !== undefined && a.expiresAt <= now) {
        st.areas.set(areaId, defaultContent(a.area, { fontColor: a.fontColor, fontSize: a.fontSize }, now));
        changed = true;
      }
    }
    if (changed) {
      st.version++;
      this.announce(id);
      this.deps.log.info({ id }, 'ttl expired');
      void this.deps.redraw(id);
    }
    this.scheduleExpiry(id);
  }

  private recordFault(raw: string, err: MldsError, source: CommandSource, now: number): void {
    // Masked before anything keeps it: the record is on /status and /info, the line in the log.
    const rec: FaultRecord = { code: err.code, message: err.message, field: err.field, at: now, query: maskQuery(raw).slice(0, 2000) };
    const id = lenientField(raw, 'id');
    const display = id === undefined ? undefined : this.config.displayById.get(id);
    if (display) this.state(display.id).lastFault = rec;
    else {
      this.recentFaults.unshift(rec);
      this.recentFaults.length = Math.min(this.recentFaults.length, RECENT_FAULTS);
    }
    this.deps.log.warn({ code: err.code, field: err.field, message: err.message, source, query: rec.query }, 'faulty command');
    const inumber = lenientField(raw, 'inumber');
    // The feedback address of an unknown display is unknowable; the MAIN display's stands in.
    const target = display ?? this.config.displays[0];
    if (inumber !== undefined && source !== 'replay' && source !== 'reload' && target) this.deps.confirm(target, 2, inumber);
  }

  /**
   * A new configuration: the displays in `keep` (unchanged) keep their state and timers;
   * every other display starts empty (the runtime re-applies what it should show).
   */
  reconfigure(config: ServiceConfig, keep: Set<string>): void {
    this.config = config;
    for (const id of [...this.states.keys()]) {
      if (keep.has(id)) continue;
      const t = this.timers.get(id);
      if (t !== undefined) this.deps.clock.clearTimeout(t);
      this.timers.delete(id);
      this.states.delete(id);
    }
    for (const d of config.displays) this.announce(d.id);
  }

  /** Clears all timers; the controller is not used afterwards. */
  dispose(): void {
    for (const t of this.timers.values()) this.deps.clock.clearTimeout(t);
    this.timers.clear();
    for (const id of this.states.keys()) publishStateChange({ config: this.config, displayId: id, state: undefined });
  }

  /** Tells what follows state without drawing (audio areas, src/control/changes.ts). */
  private announce(id: string): void {
    publishStateChange({ config: this.config, displayId: id, state: this.state(id) });
  }
}
