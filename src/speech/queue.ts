// The announcements waiting to be spoken. Bounded, so a flood of requests costs no memory:
// priority announcements go before ordinary ones (each kind in arrival order); a full queue
// makes room for a new announcement by dropping its oldest ordinary one, and refuses an
// ordinary one when every place holds a priority announcement.
import type { Announcement } from '../capability/speaker.js';

export const QUEUE_LIMIT = 10;

export interface Waiting extends Announcement {
  /** ms epoch when it was queued (the latency of its speech is counted from here). */
  at: number;
}

export type Offered = { queued: true; position: number; dropped?: Waiting } | { queued: false; reason: 'full' };

export class SpeechQueue {
  private readonly items: Waiting[] = [];

  constructor(private readonly limit = QUEUE_LIMIT) {}

  offer(a: Waiting): Offered {
    let dropped: Waiting | undefined;
    if (this.items.length >= this.limit) {
      const oldest = this.items.findIndex((w) => !w.priority);
      if (oldest < 0) return { queued: false, reason: 'full' };
      dropped = this.items.splice(oldest, 1)[0];
    }
    // Behind every priority announcement when it is one, else at the end.
    const at = a.priority ? this.items.findIndex((w) => !w.priority) : -1;
    const index = at < 0 ? this.items.length : at;
    this.items.splice(index, 0, a);
    return { queued: true, position: index + 1, ...(dropped ? { dropped } : {}) };
  }

  take(): Waiting | undefined {
    return this.items.shift();
  }

  /** Removes the announcements `keep` refuses (displays that left the configuration); returns how many. */
  filter(keep: (w: Waiting) => boolean): number {
    const before = this.items.length;
    const kept = this.items.filter(keep);
    this.items.splice(0, this.items.length, ...kept);
    return before - kept.length;
  }

  get length(): number {
    return this.items.length;
  }

  list(): readonly Waiting[] {
    return this.items;
  }
}
