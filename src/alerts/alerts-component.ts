// The CAP alerts capability: fetches each `alerts` entry every `interval` seconds, keeps the
// alerts in force (select.ts), and shows on each display the one that ranks first at the
// entry's priority through the one control path (source `cap`; levels.ts), renewing the level
// while the alert lasts and clearing it when the alert ends. An entry or an alert that cannot
// be read, filled in or shown is left out alone, counted, and a problem on /status while it
// lasts. Waits are on the runtime's clock.
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import type { ServiceProblem } from '../capability/status-types.js';
import { SPEECH } from '../capability/speaker.js';
import type { AlertFeedConfig } from '../config/alert-speech-types.js';
import { plainWordsFor } from '../config/area-types/outside-text.js';
import type { AreaConfig, ServiceConfig } from '../config/types.js';
import { describeUrl } from '../fetch/url-rules.js';
import { isoTime } from '../util/clock.js';
import { CapDecoder } from './cap-decoder.js';
import { fetchFeed, type Fetched } from './feed-fetch.js';
import { AlertLevels, levelKey, type Candidate } from './levels.js';
import {
  emptySaved,
  MAX_ENDED,
  MAX_SPOKEN,
  readSaved,
  writeSaved,
  type SavedAlert,
  type SavedAlerts,
} from './saved.js';
import { select, type NotShownReason } from './select.js';
import { fillTemplate } from './template.js';

interface Feed {
  config: AlertFeedConfig;
  index: number;
  timer?: unknown;
  abort?: AbortController;
  fetching?: Promise<void>;
  lastFetchAt?: number;
  lastGoodAt?: number;
  nextFetchAt?: number;
  fault?: { message: string; since: number };
  notShown: Array<{ identifier: string; sender: string; event: string; reason: NotShownReason | string }>;
  /**
   * Entries and alerts of the last good fetch left out (unreadable, over a limit, a template
   * that failed), and since when some are.
   */
  refused: { reasons: string[]; since: number } | undefined;
  /** Entries and alerts left out since the start, counted at each fetch. */
  refusedTotal: number;
  /** Linked alerts already fetched, by URL. */
  cache: Fetched['cache'];
  stopped: boolean;
}

/** The parsing thread ends this long after the last document (and starts again with the next). */
const DECODER_IDLE_MS = 30_000;

export class Alerts implements Component {
  readonly name = 'alerts';
  private ctx: RuntimeContext | undefined;
  private feeds: Feed[] = [];
  private saved: SavedAlerts = emptySaved();
  private writing: Promise<void> = Promise.resolve();
  private applying: Promise<void> = Promise.resolve();
  private readonly levels = new AlertLevels();
  private readonly decoder = new CapDecoder(DECODER_IDLE_MS);
  /** What was wrong with alerts.json at the start. */
  private stateProblems: ServiceProblem[] = [];
  /** `<display>|<key>` of alerts handed to speech and not yet said. */
  private readonly speaking = new Set<string>();
  /** Why an alert's warning was last not queued, by `<display>|<key>` (logged once). */
  private readonly notQueued = new Map<string, string>();

  constructor(private readonly stateDir: string | undefined) {}

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    const read = await readSaved(this.stateDir, ctx.log);
    this.saved = read.saved;
    this.stateProblems = read.problems;
    this.dropExpired(ctx.clock.now());
    this.feeds = ctx.config().alerts.map((c, i) => this.begin(c, i));
    ctx.log.info({ feeds: this.feeds.length, inForce: this.inForce().length }, 'alerts started');
  }

  async reload(ctx: RuntimeContext): Promise<void> {
    await this.stopFeeds();
    this.ctx = ctx;
    const keys = new Set(ctx.config().alerts.map(feedKey));
    for (const k of Object.keys(this.saved.feeds)) if (!keys.has(k)) delete this.saved.feeds[k];
    this.levels.forget();
    this.feeds = ctx.config().alerts.map((c, i) => this.begin(c, i));
  }

  async stop(): Promise<void> {
    await this.stopFeeds();
    await this.applying;
    // Stopped because a reload took every alerts entry away (not a shutdown): its levels end now.
    const ctx = this.ctx;
    if (ctx && ctx.config().alerts.length === 0 && Object.keys(this.saved.held).length) {
      this.saved.feeds = {};
      await this.show(ctx, ctx.clock.now()).catch(() => undefined);
    }
    await this.writing;
    await this.decoder.close();
    this.ctx = undefined;
  }

  status(): unknown {
    const now = this.ctx?.clock.now() ?? Date.now();
    const displays: Record<string, unknown[]> = {};
    for (const f of this.feeds) {
      for (const a of this.saved.feeds[feedKey(f.config, f.index)]?.inForce ?? []) {
        if (a.expiresAt !== undefined && a.expiresAt <= now) continue;
        for (const id of f.config.displays) {
          const held = this.saved.held[`${id}|${f.config.priority}`];
          const refused = this.levels.refusal(id, f.config.priority, a.key);
          (displays[id] ??= []).push({
            identifier: a.identifier,
            sender: a.sender,
            event: a.event,
            expires: isoTime(a.expiresAt) ?? null,
            priority: f.config.priority,
            showing: held?.key === a.key,
            text: a.text,
            ...(refused ? { refused } : {}),
          });
        }
      }
    }
    return {
      displays,
      feeds: this.feeds.map((f) => ({
        url: describeUrl(f.config.url),
        interval: f.config.interval,
        lastFetchAt: isoTime(f.lastFetchAt),
        lastGoodAt: isoTime(f.lastGoodAt),
        nextFetchAt: isoTime(f.nextFetchAt),
        fault: f.fault
          ? {
              message: f.fault.message,
              since: isoTime(f.fault.since),
              ageSeconds: Math.round((now - f.fault.since) / 1000),
            }
          : undefined,
        inForce: (this.saved.feeds[feedKey(f.config, f.index)]?.inForce ?? []).length,
        refused: f.refused?.reasons.length ?? 0,
        refusedTotal: f.refusedTotal,
        notShown: f.notShown,
      })),
      ...(Object.keys(this.levels.faultsByLevel()).length ? { applyFaults: this.levels.faultsByLevel() } : {}),
    };
  }

  problems(): ServiceProblem[] {
    const now = this.ctx?.clock.now() ?? Date.now();
    const faults = this.feeds
      .filter((f) => f.fault)
      .map((f) => ({
        source: 'alerts',
        message:
          `alert feed ${describeUrl(f.config.url)} fails (for ` +
          `${Math.round((now - f.fault!.since) / 1000)} s): ${f.fault!.message}; the alerts in force stay`,
        since: isoTime(f.fault!.since),
      }));
    const refused = this.feeds
      .filter((f) => f.refused)
      .map((f) => {
        const { reasons, since } = f.refused!;
        const n = reasons.length;
        const listed = reasons.slice(0, 3).join('; ') + (n > 3 ? `; and ${n - 3} more` : '');
        const what = n === 1 ? 'entry or alert is' : 'entries or alerts are';
        const message = `alert feed ${describeUrl(f.config.url)}: ${n} ${what} left out (${listed}); the rest are read`;
        return { source: 'alerts', message, since: isoTime(since) };
      });
    return [...this.stateProblems, ...faults, ...refused, ...this.levels.problems()];
  }

  private inForce(): SavedAlert[] {
    return Object.values(this.saved.feeds).flatMap((f) => f.inForce);
  }

  private begin(config: AlertFeedConfig, index: number): Feed {
    const f: Feed = {
      config,
      index,
      notShown: [],
      refused: undefined,
      refusedTotal: 0,
      cache: new Map(),
      stopped: false,
    };
    this.fetchNow(f);
    return f;
  }

  private async stopFeeds(): Promise<void> {
    const fetching = this.feeds.map((f) => f.fetching).filter((p) => p !== undefined);
    for (const f of this.feeds) {
      f.stopped = true;
      if (f.timer !== undefined) this.ctx?.clock.clearTimeout(f.timer);
      f.abort?.abort();
    }
    await Promise.allSettled(fetching);
    this.feeds = [];
  }

  private fetchNow(f: Feed): void {
    const ctx = this.ctx;
    if (!ctx || f.stopped) return;
    const abort = new AbortController();
    f.abort = abort;
    f.fetching = this.poll(ctx, f, abort.signal)
      .catch((err: unknown) =>
        ctx.log.error({ err: (err as Error).message, feed: describeUrl(f.config.url) }, 'alert feed poll failed'),
      )
      .finally(() => {
        f.fetching = undefined;
        f.abort = undefined;
        if (f.stopped) return;
        f.nextFetchAt = ctx.clock.now() + f.config.interval * 1000;
        f.timer = ctx.clock.setTimeout(() => {
          f.timer = undefined;
          f.nextFetchAt = undefined;
          this.fetchNow(f);
        }, f.config.interval * 1000);
      });
  }

  private async poll(ctx: RuntimeContext, f: Feed, signal: AbortSignal): Promise<void> {
    const cfg = ctx.config();
    f.lastFetchAt = ctx.clock.now();
    let fetched: Fetched | undefined;
    try {
      fetched = await fetchFeed(f.config.url, {
        maxBytes: cfg.alertMaxMB * 2 ** 20,
        portRange: cfg.urlPortRange,
        signal,
        field: `alerts/${f.index}/url`,
        cache: f.cache,
        allowHosts: cfg.fetch.allowHosts,
        decoder: this.decoder,
      });
    } catch (err) {
      if (f.stopped) return;
      const message = (err as Error).message;
      if (!f.fault || f.fault.message !== message)
        ctx.log.warn(
          { feed: describeUrl(f.config.url), err: message },
          'alert feed refused or unreachable; the alerts in force stay',
        );
      f.fault = { message, since: f.fault?.since ?? ctx.clock.now() };
    }
    if (f.stopped) return;
    const now = ctx.clock.now();
    const saved = (this.saved.feeds[feedKey(f.config, f.index)] ??= { inForce: [], ended: [] });
    if (fetched) {
      f.cache = fetched.cache;
      f.lastGoodAt = now;
      if (f.fault) ctx.log.info({ feed: describeUrl(f.config.url) }, 'alert feed fetched again');
      f.fault = undefined;
      const position =
        cfg.latitude !== undefined && cfg.longitude !== undefined
          ? ([cfg.latitude, cfg.longitude] as [number, number])
          : undefined;
      const sel = select(fetched.alerts, f.config, { position, geocodes: cfg.geocodes }, new Map(saved.ended), now);
      const ended = new Map(saved.ended);
      for (const [k, why] of sel.ended) ended.set(k, why);
      saved.ended = [...ended].slice(-MAX_ENDED);
      const before = new Set(f.notShown.map((n) => n.reason));
      const refused = [...fetched.refused];
      const unfilled: Feed['notShown'] = [];
      saved.inForce = [];
      for (const c of sel.inForce) {
        let text: string;
        try {
          text = fillTemplate(f.config.template, c.alert, c.info, c.expiresAt, cfg.timezone);
        } catch (err) {
          // One alert the template cannot be filled from is left out alone.
          const why = `alert ${c.alert.identifier}: the template cannot be filled in (${(err as Error).message})`;
          refused.push(why);
          const { identifier, sender } = c.alert;
          unfilled.push({ identifier, sender, event: c.info.event, reason: `refused: ${why}` });
          continue;
        }
        const { identifier, sender, sent } = c.alert;
        saved.inForce.push({
          key: c.key,
          identifier,
          sender,
          sent,
          event: c.info.event,
          severity: c.info.severity,
          from: c.from,
          expiresAt: c.expiresAt,
          text,
          spoken: c.info.instruction || c.info.headline,
        });
      }
      f.notShown = [
        ...sel.notShown.map((p) => ({
          identifier: p.alert.identifier,
          sender: p.alert.sender,
          event: p.alert.infos[0]?.event ?? '',
          reason: p.reason,
        })),
        ...unfilled,
        ...fetched.refused.map((r) => ({ identifier: '', sender: '', event: '', reason: `refused: ${r}` })),
      ];
      // What is refused is logged once, when it first appears, not at every poll.
      for (const n of f.notShown) {
        if (!/MLDS_URL_REFUSED/.test(n.reason) || before.has(n.reason)) continue;
        ctx.log.warn({ feed: describeUrl(f.config.url), err: n.reason }, 'alert feed link refused');
      }
      f.refusedTotal += refused.length;
      f.refused = refused.length ? { reasons: refused, since: f.refused?.since ?? now } : undefined;
      const fresh = refused.filter((r) => !before.has(`refused: ${r}`) && !/MLDS_URL_REFUSED/.test(r));
      if (fresh.length) {
        const feed = describeUrl(f.config.url);
        ctx.log.warn({ feed, refused: fresh.slice(0, 10) }, 'alert feed: entries or alerts left out, the rest read');
      }
    }
    saved.inForce = saved.inForce.filter((a) => a.expiresAt === undefined || a.expiresAt > now);
    await this.show(ctx, now);
  }

  private dropExpired(now: number): void {
    for (const s of Object.values(this.saved.feeds))
      s.inForce = s.inForce.filter((a) => a.expiresAt === undefined || a.expiresAt > now);
    for (const [k, h] of Object.entries(this.saved.held)) if (h.levelUntil <= now) delete this.saved.held[k];
  }

  /** Sets, renews or clears each display's levels to match the alerts in force; one pass at a time. */
  private show(ctx: RuntimeContext, now: number): Promise<void> {
    const run = this.applying.then(() => this.showNow(ctx, now));
    this.applying = run.catch(() => undefined);
    return run;
  }

  private async showNow(ctx: RuntimeContext, now: number): Promise<void> {
    const config = ctx.config();
    const wanted = new Map<string, Candidate[]>();
    for (const f of this.feeds) {
      for (const alert of this.saved.feeds[feedKey(f.config, f.index)]?.inForce ?? []) {
        for (const display of f.config.displays) {
          const k = levelKey(display, f.config.priority);
          const list = wanted.get(k) ?? [];
          list.push({ entry: f.config, alert, value: plainWordsFor(showArea(config, display, f.config), alert.text) });
          wanted.set(k, list);
        }
      }
    }
    const changed = await this.levels.sync(ctx, now, wanted, this.saved.held);
    // Every alert that comes into force is spoken once per display, shown first or not.
    const marks = new Set<string>();
    for (const f of this.feeds) {
      if (!f.config.speak) continue;
      for (const alert of this.saved.feeds[feedKey(f.config, f.index)]?.inForce ?? []) {
        for (const d of f.config.displays) {
          marks.add(`${d}|${alert.key}`);
          this.announce(ctx, d, alert);
        }
      }
    }
    for (const m of this.notQueued.keys()) if (!marks.has(m)) this.notQueued.delete(m);
    const snapshot = JSON.stringify(this.saved);
    if (changed || snapshot !== this.lastWritten) await this.persist(snapshot);
  }

  private lastWritten = '';

  private async persist(snapshot: string): Promise<void> {
    this.lastWritten = snapshot;
    const run = this.writing.then(() => writeSaved(this.stateDir, JSON.parse(snapshot) as SavedAlerts));
    this.writing = run.catch((err: unknown) =>
      this.ctx?.log.warn({ err: (err as Error).message }, 'alerts in force could not be saved'),
    );
    await this.writing;
  }

  /**
   * Hands the alert's warning to speech unless it was said or is waiting to be; it counts as
   * spoken only once speech says it was, so one refused (a full queue), dropped or failed is
   * handed over again at the next fetch while the alert is in force.
   */
  private announce(ctx: RuntimeContext, displayId: string, alert: SavedAlert): void {
    if (!alert.spoken) return;
    const mark = `${displayId}|${alert.key}`;
    if (this.saved.spoken.includes(mark) || this.speaking.has(mark)) return;
    const speaker = ctx.component(SPEECH);
    if (!speaker) return;
    this.speaking.add(mark);
    const r = speaker.announce({
      displayId,
      text: alert.spoken,
      priority: true,
      source: 'cap',
      settled: (said) => {
        this.speaking.delete(mark);
        if (!said) return;
        this.saved.spoken = [...this.saved.spoken, mark].slice(-MAX_SPOKEN);
        void this.persist(JSON.stringify(this.saved));
      },
    });
    if (r.queued) {
      this.notQueued.delete(mark);
      return;
    }
    this.speaking.delete(mark);
    if (this.notQueued.get(mark) !== r.reason) {
      const why = 'alert not spoken yet; handed to speech again at the next fetch';
      ctx.log.warn({ display: displayId, identifier: alert.identifier, reason: r.reason }, why);
    }
    this.notQueued.set(mark, r.reason);
  }
}

/** The area an entry's alerts show in on a display (the configuration checks that it exists). */
function showArea(config: ServiceConfig, display: string, entry: AlertFeedConfig): AreaConfig | undefined {
  return config.displayById
    .get(display)
    ?.layouts.get(entry.show.layout)
    ?.areas.find((a) => a.id === entry.show.area);
}

/** Two entries may watch one URL for different displays: each keeps its own alerts. */
const feedKey = (c: AlertFeedConfig, index: number): string => `${index} ${c.url}`;

export function alertsComponent(stateDir?: string): Component {
  return new Alerts(stateDir);
}
