// A feed's alerts on its boards' displays: the layout of each departures area of the feed that
// names an `alertArea` gets the alerts active now that select that board (alert-scope.ts) as a
// priority message (the area's `alertPriority`) through the one control path, source `feed`:
// `id=<display>&layout=<layout>&<alertArea>=<text>&priority=<p>&expires=<s>`. The message is
// said again before `expires` runs out while the alert lasts, so a service that stops (or a
// feed that dies) lets it end on its own; it is cleared (`priority=<p>&layout=`) when the
// alert's period ends or it leaves the feed. Where the alert area has `"speak": true`, a new
// alert text is said by the feed itself, in the words the feed gives for speech when it has
// them (GTFS-realtime's tts_header_text, tts_description_text), else as shown.
import type { RuntimeContext } from '../capability/component-contract.js';
import { SPEECH } from '../capability/speaker.js';
import type { BoardArea, FeedConfig } from '../config/feed-types.js';
import { emptyScope, selects, type AlertScope } from './alert-scope.js';
import type { FeedAlert } from './model.js';

/** Longest alert text sent; a sign shows far less. */
const MAX_TEXT = 1000;

export interface AlertTarget {
  display: string;
  layout: string;
  area: string;
  priority: number;
  scope: AlertScope;
}

/** Each alert area, with what the boards showing in its layout answer to (alert-scope.ts). */
export function alertTargets(
  feed: FeedConfig,
  scopeOf: (stops: readonly string[], routes: readonly string[] | undefined) => AlertScope,
): AlertTarget[] {
  const byLayout = new Map<string, AlertTarget>();
  for (const b of feed.boards.filter((x: BoardArea) => x.alertArea !== undefined && x.areas.includes(x.alertArea))) {
    const k = `${b.display}\u0000${b.layout}\u0000${b.alertArea}`;
    let t = byLayout.get(k);
    if (!t) {
      t = { display: b.display, layout: b.layout, area: b.alertArea!, priority: b.alertPriority, scope: emptyScope() };
      byLayout.set(k, t);
    }
    const add = scopeOf(b.stops, b.routes);
    for (const key of Object.keys(add) as Array<keyof AlertScope>)
      for (const v of add[key]) (t.scope[key] as Set<unknown>).add(v);
  }
  return [...byLayout.values()];
}

export function activeAt(a: FeedAlert, now: number): boolean {
  return (
    !a.periods.length ||
    a.periods.some((p) => (p.start === undefined || p.start <= now) && (p.end === undefined || now < p.end))
  );
}

/** The next start or end of a period after `now` (when the alerts shown must be looked at again). */
export function nextChange(alerts: FeedAlert[], now: number): number | undefined {
  let next: number | undefined;
  for (const a of alerts)
    for (const p of a.periods)
      for (const t of [p.start, p.end]) if (t !== undefined && t > now && (next === undefined || t < next)) next = t;
  return next;
}

export class AlertShows {
  /** What each display shows now: the layout, area and text sent, and at which level. */
  private shown = new Map<string, { display: string; text: string; priority: number; at: number }>();

  constructor(
    private readonly feed: FeedConfig,
    private readonly expires: number,
  ) {}

  /** Brings every target in line with `alerts` at `now`; `renew` says the same text again to push its end back. */
  async update(
    ctx: RuntimeContext,
    targets: AlertTarget[],
    alerts: FeedAlert[],
    now: number,
    renew: boolean,
  ): Promise<void> {
    const wanted = new Map<
      string,
      { display: string; layout: string; area: string; priority: number; text: string; words: string; until?: number }
    >();
    for (const t of targets) {
      const hits = alerts.filter((a) => activeAt(a, now) && a.selectors.some((s) => selects(s, t.scope)));
      if (!hits.length) continue;
      const text = [...new Set(hits.map((a) => a.text))].join(' \u2022 ').slice(0, MAX_TEXT);
      const words = [...new Set(hits.map((a) => a.spoken ?? a.text))].join('. ').slice(0, MAX_TEXT);
      const ends = hits.map((a) => endOf(a, now)).filter((e): e is number => e !== undefined);
      // One level per display: a display with two alert layouts shows the first one's.
      if (![...wanted.values()].some((w) => w.display === t.display))
        wanted.set(t.display, {
          display: t.display,
          layout: t.layout,
          area: t.area,
          priority: t.priority,
          text,
          words,
          until: ends.length === hits.length ? Math.max(...ends) : undefined,
        });
    }
    for (const [display, w] of wanted) {
      const before = this.shown.get(display);
      const said = `${w.layout}\u0000${w.area}\u0000${w.text}`;
      if (before && before.text === said && before.priority === w.priority && !renew) continue;
      // Moved to another level (a reload changed alertPriority): the old one is taken down first.
      if (before && before.priority !== w.priority) await this.clear(ctx, display, before.priority);
      const left = w.until === undefined ? this.expires : Math.ceil((w.until - now) / 1000);
      const expires = Math.max(1, Math.min(this.expires, left, 86_400));
      const q =
        `id=${enc(display)}&layout=${enc(w.layout)}&${enc(w.area)}=${enc(w.text)}` +
        `&priority=${w.priority}&expires=${expires}`;
      try {
        await ctx.apply(q, 'feed');
        const area = ctx
          .config()
          .displayById.get(display)
          ?.layouts.get(w.layout)
          ?.areas.find((x) => x.id === w.area);
        const isNew = before?.text !== said;
        if (isNew && area && 'speak' in area && area.speak)
          ctx.component(SPEECH)?.announce({ displayId: display, text: w.words, priority: true, source: 'feed' });
        this.shown.set(display, { display, text: said, priority: w.priority, at: now });
      } catch (err) {
        ctx.log.warn({ feed: this.feed.id, display, err: (err as Error).message }, 'feed alert cannot be shown');
      }
    }
    for (const [display, was] of [...this.shown]) {
      if (wanted.has(display)) continue;
      this.shown.delete(display);
      await this.clear(ctx, display, was.priority);
    }
  }

  /** Takes every alert this feed put up down again (the feed left the configuration). */
  async clearAll(ctx: RuntimeContext): Promise<void> {
    for (const [display, was] of [...this.shown]) await this.clear(ctx, display, was.priority);
    this.shown.clear();
  }

  count(): number {
    return this.shown.size;
  }

  private async clear(ctx: RuntimeContext, display: string, priority: number): Promise<void> {
    try {
      await ctx.apply(`id=${enc(display)}&priority=${priority}&layout=`, 'feed');
    } catch (err) {
      ctx.log.warn({ feed: this.feed.id, display, err: (err as Error).message }, 'feed alert cannot be cleared');
    }
  }
}

function endOf(a: FeedAlert, now: number): number | undefined {
  if (!a.periods.length) return undefined;
  const p = a.periods.find((x) => (x.start === undefined || x.start <= now) && (x.end === undefined || now < x.end));
  return p?.end;
}

const enc = (s: string) => encodeURIComponent(s);
