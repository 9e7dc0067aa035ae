// Departures spoken when their countdown reaches a board's `announceAt` minutes: once per
// departure and board, handed to the speech component through the Speaker seam (nothing is
// said when speech is not configured). The countdown is the board's own, floor((time - now) /
// 60 s), so the words match the sign; a cancelled departure is not announced, and one already
// closer than `announceAt` when first seen (a start, a new feed) is not announced late.
import type { RuntimeContext } from '../capability/component-contract.js';
import { SPEECH } from '../capability/speaker.js';
import type { BoardArea } from '../config/feed-types.js';
import type { BoardSource } from '../config/board-source.js';

/** How often the boards are looked at: a countdown is spoken within this of its minute. */
export const ANNOUNCE_CHECK_MS = 5000;
const WANTED = 64;

/**
 * The words for one departure: `{route}`, `{destination}`, `{platform}`, `{m}` filled in; no platform, no ", platform".
 */
export function announcementText(
  template: string,
  d: { route: string; destination: string; platform: string },
  minutes: number,
): string {
  const t = d.platform ? template : template.replace(/,?\s*platform\s*\{platform\}/i, '');
  return t
    .replaceAll('{route}', d.route)
    .replaceAll('{destination}', d.destination)
    .replaceAll('{platform}', d.platform)
    .replaceAll('{m}', String(minutes));
}

export class DepartureAnnouncer {
  /** board + departure key -> the departure's time, until it has left. */
  private readonly said = new Map<string, number>();
  /** Departures first seen already inside their announcement minute: never announced late. */
  private readonly late = new Set<string>();
  private timer: unknown;
  private stopped = false;

  constructor(
    private readonly ctx: RuntimeContext,
    private readonly source: BoardSource,
    private boards: BoardArea[],
  ) {}

  /** Boards with `announceAt` in the configuration now. */
  static boardsOf(ctx: RuntimeContext): BoardArea[] {
    return ctx
      .config()
      .feeds.flatMap((f) => f.boards)
      .filter((b) => b.announceAt !== undefined);
  }

  start(): void {
    this.check(true);
  }

  follow(boards: BoardArea[]): void {
    this.boards = boards;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.ctx.clock.clearTimeout(this.timer);
  }

  /** Looks at every board now; `first`: what is already inside its minute is only noted. */
  check(first = false): void {
    if (this.stopped) return;
    const now = this.ctx.clock.now();
    const speaker = this.ctx.component(SPEECH);
    for (const b of this.boards) {
      const at = b.announceAt!;
      const data = this.source.board({
        feed: b.feed,
        stops: b.stops,
        routes: b.routes,
        staleAfter: b.staleAfter,
        now,
        limit: WANTED,
      });
      for (const d of data.departures) {
        const key = `${b.display}\u0000${b.layout}\u0000${b.area}\u0000${d.key}`;
        const m = Math.floor((d.time - now) / 60_000);
        if (m > at) {
          this.late.delete(key);
          continue;
        }
        if (this.said.has(key) || this.late.has(key) || d.cancelled || m < 0) continue;
        if (first || m < at) {
          this.late.add(key);
          continue;
        }
        this.said.set(key, d.time);
        speaker?.announce({
          displayId: b.display,
          text: announcementText(b.announceText, d, m),
          priority: false,
          source: 'departures',
        });
      }
    }
    // Departures gone by more than an hour are forgotten: the memory stays the size of the boards.
    for (const [key, time] of this.said) if (time < now - 3_600_000) this.said.delete(key);
    if (this.late.size > 10_000) this.late.clear();
    this.timer = this.ctx.clock.setTimeout(() => this.check(), ANNOUNCE_CHECK_MS);
  }
}
