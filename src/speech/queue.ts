// The announcements waiting to be spoken. Bounded, so a flood of requests costs no memory.
// Four ranks, each in arrival order: an alert's warning (source cap) before every other
// announcement, then a readout a passenger asked for, a priority announcement before an
// ordinary one. A full queue makes room for a
// new announcement by dropping the oldest of its lowest rank, when that is an ordinary one or
// ranks below the new one; otherwise the new one is refused (10 priority announcements refuse
// another, never an alert's; 10 alerts' refuse even an alert's).
import type { Announcement } from '../capability/speaker.js';

export const QUEUE_LIMIT = 10;

export interface Waiting extends Announcement {
  /** ms epoch when it was queued (the latency of its speech is counted from here). */
  at: number;
}

export type Offered = { queued: true; position: number; dropped?: Waiting } | { queued: false; reason: 'full' };

/** 3: an alert's warning, 2: a readout, 1: a priority announcement, 0: an ordinary one. */
export const rankOf = (a: Announcement): number =>
  a.source === 'cap' ? 3 : a.source === 'readout' ? 2 : a.priority ? 1 : 0;

export class SpeechQueue {
  private readonly items: Waiting[] = [];

  constructor(private readonly limit = QUEUE_LIMIT) {}

  offer(a: Waiting): Offered {
    const rank = rankOf(a);
    let dropped: Waiting | undefined;
    if (this.items.length >= this.limit) {
      const lowest = Math.min(...this.items.map(rankOf));
      if (lowest > 0 && lowest >= rank) return { queued: false, reason: 'full' };
      dropped = this.items.splice(
        this.items.findIndex((w) => rankOf(w) === lowest),
        1,
      )[0];
    }
    // Behind every announcement of its rank or above.
    const at = this.items.findIndex((w) => rankOf(w) < rank);
    const index = at < 0 ? this.items.length : at;
    this.items.splice(index, 0, a);
    return { queued: true, position: index + 1, ...(dropped ? { dropped } : {}) };
  }

  take(): Waiting | undefined {
    return this.items.shift();
  }

  /** Removes the announcements `keep` refuses (displays that left the configuration); returns them. */
  filter(keep: (w: Waiting) => boolean): Waiting[] {
    const gone = this.items.filter((w) => !keep(w));
    const kept = this.items.filter(keep);
    this.items.splice(0, this.items.length, ...kept);
    return gone;
  }

  get length(): number {
    return this.items.length;
  }

  list(): readonly Waiting[] {
    return this.items;
  }
}
