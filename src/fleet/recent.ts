// The commands seen lately, by display and inumber, with the payload each came in and how it
// was confirmed. A QoS 1 redelivery (a sender's retry after it lost the broker's PUBACK) is
// the same payload again, byte for byte, while that command still waits or is the last one its
// display took: it is acted on once and confirmed the same way both times. Once another command
// (from any source) reached the display, the same payload is a new command: A, B, then A again
// shows A. TPCMs reuse inumbers (counters wrap, some send a constant), so a payload that
// differs is a new command too.
// Bounded: at most RECENT_LIMIT entries (the oldest leaves first), each for REDELIVERY_MS.
import { createHash } from 'node:crypto';

export interface Confirmation {
  inumber: string | null;
  confirm: 0 | 1 | 2;
  id: string | null;
  code: string | null;
  message: string;
}

export const RECENT_LIMIT = 1000;
/** A sender retries when it reconnects; a command older than this carrying `ts` would be stale anyway. */
export const REDELIVERY_MS = 60_000;

interface Seen {
  digest: string;
  at: number;
  result: Promise<Confirmation>;
  /** The display's count of commands taken once this one was; undefined while it waits. */
  taken?: number;
}

const keyOf = (id: string, inumber: string) => `${id}\u0000${inumber}`;

/** What tells two payloads apart: a digest, so an entry holds 44 characters whatever the payload's size. */
export function digestOf(payload: Buffer): string {
  return createHash('sha256').update(payload).digest('base64');
}

export class RecentCommands {
  private readonly seen = new Map<string, Seen>();
  /** Commands each display took since the start, from every source (one entry per display id). */
  private readonly takenBy = new Map<string, number>();

  /** How the earlier delivery of this very payload was confirmed; undefined for a new command. */
  redelivery(id: string, inumber: string, digest: string, now: number): Promise<Confirmation> | undefined {
    const s = this.seen.get(keyOf(id, inumber));
    if (!s || s.digest !== digest || now - s.at >= REDELIVERY_MS) return undefined;
    return s.taken === undefined || s.taken === this.count(id) ? s.result : undefined;
  }

  /** A command waiting for the control path (`taken`: decided at once, as an announcement is). */
  remember(
    id: string,
    inumber: string,
    digest: string,
    now: number,
    result: Promise<Confirmation>,
    taken = false,
  ): void {
    const key = keyOf(id, inumber);
    // Deleted first, so the newest use of an inumber is the last to leave.
    this.seen.delete(key);
    this.seen.set(key, { digest, at: now, result, ...(taken ? { taken: this.count(id) } : {}) });
    if (this.seen.size > RECENT_LIMIT) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Another source's command reached display `id`: what MQTT sent it before is no longer its last. */
  applied(id: string): void {
    this.takenBy.set(id, this.count(id) + 1);
  }

  /**
   * The control path took the command remembered with `result`: applied to display `id` (it is
   * now the display's last), or refused (the display's last is what it was).
   */
  taken(id: string, inumber: string, result: Promise<Confirmation>, applied: boolean): void {
    if (applied) this.applied(id);
    const s = this.seen.get(keyOf(id, inumber));
    if (s?.result === result) s.taken = this.count(id);
  }

  /**
   * Forgets the command remembered with `result`: it was refused without being acted on, so sent again it is tried
   * again.
   */
  forget(id: string, inumber: string, result: Promise<Confirmation>): void {
    const key = keyOf(id, inumber);
    if (this.seen.get(key)?.result === result) this.seen.delete(key);
  }

  private count(id: string): number {
    return this.takenBy.get(id) ?? 0;
  }
}
