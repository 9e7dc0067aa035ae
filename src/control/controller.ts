import type { ServiceConfig } from '../config/types.js';
import { MldsError } from '../errors.js';
import type { FrameFate } from '../frame.js';
import { countCommand, countSuperseded } from './counters.js';
import { publishStateChange } from './changes.js';
import { parseCommand, type ClearCommand, type Command } from './command.js';
import { maskQuery, maskText } from './credentials.js';
import { buildAreas } from './build-areas.js';
import { lenientField } from './lenient.js';
import { mergedQuery, placeLayer, savedLayers, shownLine, type SavedLevels } from './layers.js';
import { expireLevels, nextExpiry } from './expiry.js';
import { journal, refuseUnlessStorable, unstorableMessage } from './storable.js';
import { OnShow } from './on-show.js';
import {
  emptyDisplayState,
  type AreaState,
  type FaultRecord,
  type HeldState,
  type Layer,
  type Outcome,
} from './state.js';
import type { ApplyResult, CommandSource, ControlDeps } from './control-types.js';

export type { Outcome };

/** What a command changed in a display's state, to put back when it cannot be stored. */
interface Before {
  layers: Layer[];
  lastCommand: HeldState['lastCommand'];
  lastIgnored: HeldState['lastIgnored'];
}

const beforeOf = (st: HeldState): Before => ({
  layers: st.layers,
  lastCommand: st.lastCommand,
  lastIgnored: st.lastIgnored,
});

const RECENT_FAULTS = 20;

/** Runs `fn` once `stored` resolves (at once when there is nothing to wait for), never when it rejects. */
function after(stored: Promise<void> | undefined, fn: () => void): void {
  if (stored) stored.then(fn, () => undefined);
  else fn();
}

/**
 * Control messages -> display state. The one path for HTTP, crons, pollers and the boot
 * replay: validate completely first, so a faulty message changes nothing, then commit.
 */
export class Controller {
  private states = new Map<string, HeldState>();
  private timers = new Map<string, unknown>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly onShow: OnShow;
  /** Faults of messages whose display could not be told (unknown or missing id). */
  readonly recentFaults: FaultRecord[] = [];

  constructor(
    private config: ServiceConfig,
    private readonly deps: ControlDeps,
  ) {
    for (const d of config.displays) this.states.set(d.id, emptyDisplayState(d.id));
    this.onShow = new OnShow((id) => deps.rendered(id));
  }

  state(id: string): HeldState {
    let s = this.states.get(id);
    if (!s) {
      s = emptyDisplayState(id);
      this.states.set(id, s);
    }
    return s;
  }

  /** Validates a control message without applying it (HEAD /mlds); throws the MldsError GET would answer. */
  validate(raw: string): Command | ClearCommand {
    const cmd = parseCommand(raw, this.config, this.deps.credentialNames?.());
    const why = this.deps.store.unwritable();
    if (why !== undefined) throw new MldsError('MLDS_STATE_UNWRITABLE', unstorableMessage(why));
    return cmd;
  }

  /**
   * Validates and applies one control message. Throws MldsError (and sends confirm=2) when
   * it is faulty, MLDS_STATE_UNWRITABLE (confirm=0, nothing changed) when it cannot be stored;
   * otherwise resolves once the state is committed and stored, before the panel is written.
   * `restoredExpiry`: a saved level's end (restore-levels.ts), instead of now + expires.
   */
  apply(raw: string, source: CommandSource, restoredExpiry?: number): Promise<ApplyResult> {
    // Serialized so two messages for one display commit in arrival order, whatever their picture loads take.
    const run = this.queue.then(() => this.applyNow(raw, source, restoredExpiry));
    this.queue = run.catch(() => undefined);
    // The next message commits without waiting for this one's journal line (the lines of a turn
    // share one write); this one's caller hears only once it is stored.
    return run.then((r) => (r.stored ? r.stored.then(() => r) : r));
  }

  /** The levels of a display as the journal keeps them, for a reload to apply again. */
  saved(id: string): SavedLevels {
    const layers = this.state(id).layers;
    return { base: layers.find((l) => l.priority === 0)?.query, layers: savedLayers(layers) };
  }

  private async applyNow(raw: string, source: CommandSource, restoredExpiry?: number): Promise<ApplyResult> {
    const now = this.deps.clock.now();
    let cmd: Command | ClearCommand;
    try {
      cmd = parseCommand(raw, this.config, this.deps.credentialNames?.());
    } catch (err) {
      if (err instanceof MldsError) this.recordFault(raw, err, source, now);
      countCommand(source, 'fault');
      throw err;
    }
    const id = cmd.display.id;
    const st = this.state(id);
    const keeps = source !== 'replay' && source !== 'reload';
    if (cmd.clear) {
      if (keeps) refuseUnlessStorable(this.deps, cmd, source);
      return this.clearLevel(cmd, st, source, now, keeps);
    }
    const old = st.layers.find((l) => l.priority === cmd.priority);
    const areas = await buildAreas(cmd, old, now, this.deps);
    if (keeps) refuseUnlessStorable(this.deps, cmd, source);
    // Commit; taken back only when its journal line cannot be written.
    const before = beforeOf(st);
    const layer: Layer = {
      priority: cmd.priority,
      layout: cmd.layout.name,
      areas,
      since: now,
      source,
      inumber: cmd.inumber,
      expiresAt: cmd.priority > 0 ? (restoredExpiry ?? now + cmd.expires! * 1000) : undefined,
      query: cmd.keep && old?.layout === cmd.layout.name ? mergedQuery(cmd, areas) : cmd.query,
      named: new Set(cmd.areas.keys()),
    };
    const written = new Promise<Outcome>((resolve) => {
      layer.reveal = resolve;
    });
    st.layers = placeLayer(st.layers, layer);
    st.lastCommand = { query: cmd.query, at: now, inumber: cmd.inumber, source };
    st.lastIgnored = cmd.ignored.length ? cmd.ignored : undefined;
    // In the kernel before the command is answered (`stored`), and before anything is shown when
    // it is the first of its turn: a write that fails then leaves no trace.
    const stored = !keeps
      ? undefined
      : this.journalled(cmd, source, st, before, layer, now, (undo) =>
          layer.priority === 0
            ? this.deps.store.noteLastRequest(id, { query: layer.query, at: now, inumber: cmd.inumber, source }, undo)
            : this.deps.store.noteLayers(id, savedLayers(st.layers), undo),
        );
    // Stored underneath and replaced there before it was ever shown (once it is certain that it was replaced).
    if (old?.reveal) after(stored, () => old.reveal?.('superseded'));
    if (st.layers[0] === layer) void this.show(id, now, false);
    this.scheduleExpiry(id);
    countCommand(source, 'ok');
    // An HTTP command is logged once, on its request line (src/http); other sources here.
    if (source !== 'http')
      this.deps.log.info(
        {
          id,
          layout: cmd.layout.name,
          inumber: cmd.inumber,
          source,
          ignored: cmd.ignored,
          ...(layer.priority ? { priority: layer.priority } : {}),
        },
        'command applied',
      );
    this.confirmWhen(cmd, source, written, stored);
    return { displayId: id, layout: cmd.layout.name, inumber: cmd.inumber, ignored: cmd.ignored, written, stored };
  }

  /** `priority=<p>&layout=`: level p goes at once; what is under it shows when it was on show. */
  private clearLevel(
    cmd: ClearCommand,
    st: HeldState,
    source: CommandSource,
    now: number,
    keeps: boolean,
  ): ApplyResult {
    const id = cmd.display.id;
    const before = beforeOf(st);
    const layer = st.layers.find((l) => l.priority === cmd.priority);
    const onShow = layer !== undefined && st.layers[0] === layer;
    st.lastCommand = { query: cmd.query, at: now, inumber: cmd.inumber, source };
    if (layer) st.layers = st.layers.filter((l) => l !== layer);
    const stored = !keeps
      ? undefined
      : this.journalled(cmd, source, st, before, undefined, now, (undo) =>
          this.deps.store.noteLayers(id, savedLayers(st.layers), undo),
        );
    let written = Promise.resolve<Outcome>('shown');
    if (layer) {
      if (layer.reveal) after(stored, () => layer.reveal?.('not shown'));
      if (onShow) written = this.show(id, now, true, 'not shown').then((f) => (f.ok ? 'shown' : 'not shown'));
      this.scheduleExpiry(id);
    }
    if (source !== 'http')
      this.deps.log.info(
        { id, priority: cmd.priority, inumber: cmd.inumber, source, found: !!layer },
        'priority level cleared',
      );
    this.confirmWhen(cmd, source, written, stored);
    return { displayId: id, layout: '', inumber: cmd.inumber, ignored: [], written, stored };
  }

  /**
   * Confirmed 1 once a frame carried the change to the output, or once it was superseded (it was
   * executed; the MQTT confirmation tells it apart); 0 when the write failed or the change could
   * not be stored.
   */
  private confirmWhen(
    cmd: Command | ClearCommand,
    source: CommandSource,
    written: Promise<Outcome>,
    stored: Promise<void> | undefined,
  ): void {
    if (source === 'replay' || source === 'reload') return;
    const inumber = cmd.inumber;
    const outcome = stored
      ? stored.then(
          () => written,
          (): Outcome => 'not shown',
        )
      : written;
    void outcome.then((o) => {
      if (o === 'superseded') countSuperseded();
      if (inumber !== undefined) this.deps.confirm(cmd.display, o === 'not shown' ? 0 : 1, inumber);
    });
  }

  /** The change's journal line, `note`; when it cannot be written, the change is taken back. */
  private journalled(
    cmd: Command | ClearCommand,
    source: CommandSource,
    st: HeldState,
    before: Before,
    layer: Layer | undefined,
    now: number,
    note: (undo: () => void) => Promise<void> | undefined,
  ): Promise<void> | undefined {
    return journal(this.deps, cmd, source, note, (drawn) =>
      this.takeBack(cmd.display.id, st, before, layer, now, drawn),
    );
  }

  /**
   * A change whose journal line could not be written goes: the display's levels and last
   * command are what they were, and what is on show follows when the change had been drawn.
   * Changes of one turn are taken back newest first (turn-batch.ts), so `before` is current.
   */
  private takeBack(
    id: string,
    st: HeldState,
    before: Before,
    layer: Layer | undefined,
    now: number,
    drawn: boolean,
  ): void {
    st.layers = before.layers;
    st.lastCommand = before.lastCommand;
    st.lastIgnored = before.lastIgnored;
    // A level placed underneath will never show now.
    layer?.reveal?.('not shown');
    if (layer) layer.reveal = undefined;
    if (!drawn) return;
    const top = st.layers[0] as Layer | undefined;
    if (top ? st.areas !== top.areas : st.layout !== undefined) void this.show(id, now, true);
    this.scheduleExpiry(id);
  }

  /**
   * The display shows its highest level now: what changed is drawn, told and recorded.
   * `revealed`: the level was underneath until now, so its contents start again (effects, scrolls).
   * `unseen`: what the commands it no longer shows, if no frame carried them, were.
   */
  private show(id: string, now: number, revealed: boolean, unseen: Outcome = 'superseded'): Promise<FrameFate> {
    const st = this.state(id);
    const top = st.layers[0] as Layer | undefined;
    if (top && revealed) for (const [k, a] of top.areas) top.areas.set(k, { ...a, setAt: now });
    if (st.layout !== top?.layout) st.layoutSetAt = now;
    const before = st.areas;
    st.layout = top?.layout;
    st.areas = top?.areas ?? new Map<string, AreaState>();
    st.version++;
    if (top && this.deps.shown) {
      for (const a of st.areas.values())
        if (before.get(a.area.id) !== a) this.deps.shown(shownLine(id, top, a, now, false));
    }
    this.announce(id);
    const fate = this.deps.redraw(id);
    this.onShow.changed(id, st.layers, fate, unseen);
    return fate;
  }

  private scheduleExpiry(id: string): void {
    const clock = this.deps.clock;
    const old = this.timers.get(id);
    if (old !== undefined) clock.clearTimeout(old);
    this.timers.delete(id);
    const next = nextExpiry(this.state(id).layers);
    if (next === Infinity) return;
    this.timers.set(
      id,
      clock.setTimeout(() => this.expire(id), Math.max(0, next - clock.now())),
    );
  }

  /** Time over (expiry.ts): what is on show follows the levels and areas that ran out. */
  private expire(id: string): void {
    this.timers.delete(id);
    const now = this.deps.clock.now();
    const st = this.state(id);
    const top = st.layers[0];
    const { ended, changed } = expireLevels(id, st, now, this.deps.shown);
    if (ended.length) this.deps.log.info({ id, priorities: ended.map((l) => l.priority) }, 'priority message expired');
    if (top && ended.includes(top)) void this.show(id, now, true, 'not shown');
    else if (changed) {
      st.version++;
      this.announce(id);
      this.deps.log.info({ id }, 'ttl expired');
      void this.deps.redraw(id);
    }
    this.scheduleExpiry(id);
  }

  private recordFault(raw: string, err: MldsError, source: CommandSource, now: number): void {
    // Masked before anything keeps it: the record is on /status and /info, the line in the log.
    const rec: FaultRecord = {
      code: err.code,
      message: maskText(err.message),
      field: err.field,
      at: now,
      query: maskQuery(raw).slice(0, 2000),
    };
    const id = lenientField(raw, 'id');
    const display = id === undefined ? undefined : this.config.displayById.get(id);
    if (display) this.state(display.id).lastFault = rec;
    else {
      this.recentFaults.unshift(rec);
      this.recentFaults.length = Math.min(this.recentFaults.length, RECENT_FAULTS);
    }
    this.deps.log.warn(
      { code: err.code, field: err.field, message: rec.message, source, query: rec.query },
      'faulty command',
    );
    const inumber = lenientField(raw, 'inumber');
    // The feedback address of an unknown display is unknowable; the MAIN display's stands in.
    const target = display ?? this.config.displays[0];
    if (inumber !== undefined && source !== 'replay' && source !== 'reload' && target)
      this.deps.confirm(target, 2, inumber);
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
      this.onShow.forget(id);
    }
    for (const d of config.displays) this.announce(d.id);
  }

  /** Clears all timers; the controller is not used afterwards. */
  dispose(): void {
    for (const st of this.states.values()) for (const l of st.layers) l.reveal?.('not shown');
    for (const t of this.timers.values()) this.deps.clock.clearTimeout(t);
    this.timers.clear();
    for (const id of this.states.keys()) publishStateChange({ config: this.config, displayId: id, state: undefined });
  }

  /** Tells what follows state without drawing (audio areas, src/control/changes.ts). */
  private announce(id: string): void {
    publishStateChange({ config: this.config, displayId: id, state: this.state(id) });
  }
}

/**
 * The boot replay, and a changed display after a reload: its priority-0 query, then each
 * level above with the time it had left; a level that ended meanwhile is not shown.
 * Not stored again, not confirmed. Rejects with the first fault after trying all.
 */
export async function restoreLevels(
  ctl: Controller,
  id: string,
  levels: SavedLevels,
  source: 'replay' | 'reload',
  now: number,
  log: { info(obj: object, msg: string): void },
): Promise<void> {
  let fault: unknown;
  if (levels.base !== undefined)
    await ctl.apply(levels.base, source).catch((err: unknown) => {
      fault ??= err;
    });
  for (const l of levels.layers) {
    if (l.expiresAt <= now) {
      log.info(
        { id, priority: l.priority, expiredAt: new Date(l.expiresAt).toISOString() },
        'priority message ended while the service was down; not shown',
      );
      continue;
    }
    await ctl.apply(l.query, source, l.expiresAt).catch((err: unknown) => {
      fault ??= err;
    });
  }
  if (fault) throw fault;
}
