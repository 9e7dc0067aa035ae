// The feeds capability (docs/feeds.md): every configured feed polled, its departures served to
// the units' departures areas through the BoardSource seam, its alerts shown as priority
// messages, its state on /status and /info. Loaded only when `feeds` is configured.
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { FEEDS } from '../capability/feeds.js';
import type { FeedConfig } from '../config/feed-types.js';
import type { ServiceProblem } from '../problem.js';
import type { BoardData, BoardQuery, BoardSource } from '../config/board-source.js';
import { NO_DATA } from './board.js';
import { Feed } from './feed.js';
import { DepartureAnnouncer } from './announce.js';
import { FeedDecoder } from './decoder.js';
import { ScheduleReader } from './schedule-reader.js';

/** The decoding thread outlives the pause between polls up to this long (feeds poll every 30 s by default). */
const DECODER_IDLE_MS = 120_000;

const keyOf = (f: FeedConfig) => JSON.stringify(f);

export class FeedsComponent implements Component, BoardSource {
  readonly name = FEEDS.name;
  private ctx: RuntimeContext | undefined;
  private feeds = new Map<string, Feed>();
  private readonly listeners = new Set<(feed: string) => void>();
  /** Only while a board has `announceAt`. */
  private announcer: DepartureAnnouncer | undefined;
  private readonly decoder = new FeedDecoder(DECODER_IDLE_MS);
  /** Schedules are read one at a time, each in a thread that ends after it. */
  private readonly reader = new ScheduleReader();

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    for (const f of ctx.config().feeds) this.begin(ctx, f);
    this.attach(ctx);
    this.announce(ctx);
    ctx.log.info({ feeds: this.feeds.size }, 'feeds started');
  }

  /** A feed whose settings (and boards) stayed keeps its data and rhythm; the rest stop or start. */
  async reload(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    const next = new Map(ctx.config().feeds.map((f) => [f.id, f]));
    for (const [id, feed] of [...this.feeds]) {
      const now = next.get(id);
      if (now && keyOf(now) === keyOf(feed.config)) continue;
      this.feeds.delete(id);
      await feed.stop(true);
    }
    for (const f of next.values()) if (!this.feeds.has(f.id)) this.begin(ctx, f);
    this.attach(ctx);
    this.announce(ctx);
    for (const id of this.feeds.keys()) this.emit(id);
  }

  async stop(): Promise<void> {
    this.announcer?.stop();
    this.announcer = undefined;
    const feeds = [...this.feeds.values()];
    this.feeds.clear();
    await Promise.all(feeds.map((f) => f.stop(false)));
    await this.decoder.close();
    await this.reader.close();
    for (const u of this.ctx?.units().values() ?? []) if (u.boards === this) u.boards = undefined;
    this.ctx = undefined;
  }

  board(q: BoardQuery): BoardData {
    return this.feeds.get(q.feed)?.board(q) ?? NO_DATA;
  }

  onChange(listener: (feed: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The feed by id (tests and /status). */
  feed(id: string): Feed | undefined {
    return this.feeds.get(id);
  }

  status(): { feeds: Record<string, unknown> } {
    const now = this.ctx?.clock.now() ?? Date.now();
    return { feeds: Object.fromEntries([...this.feeds].map(([id, f]) => [id, f.status(now)])) };
  }

  problems(): ServiceProblem[] {
    return [...this.feeds.values()].flatMap((f) => f.problems());
  }

  private begin(ctx: RuntimeContext, config: FeedConfig): void {
    const feed = new Feed(config, ctx, this.decoder, this.reader, () => this.emit(config.id));
    this.feeds.set(config.id, feed);
    feed.start();
  }

  /** Every unit's departures areas read from here (units made by a reload too). */
  private attach(ctx: RuntimeContext): void {
    for (const u of ctx.units().values()) u.boards = this;
  }

  /** Departures spoken at their boards' `announceAt`, while any board has one. */
  private announce(ctx: RuntimeContext): void {
    const boards = DepartureAnnouncer.boardsOf(ctx);
    if (!boards.length) {
      this.announcer?.stop();
      this.announcer = undefined;
      return;
    }
    if (this.announcer) return this.announcer.follow(boards);
    this.announcer = new DepartureAnnouncer(ctx, this, boards);
    this.announcer.start();
  }

  private emit(feed: string): void {
    for (const l of this.listeners) {
      try {
        l(feed);
      } catch (err) {
        this.ctx?.log.warn({ feed, err: (err as Error).message }, 'a board listener failed');
      }
    }
  }
}

export function feedsComponent(): FeedsComponent {
  return new FeedsComponent();
}
