// The commands seen lately, by display and inumber, with the payload each came in and how it
// was confirmed. A QoS 1 redelivery (a sender's retry after it lost the broker's PUBACK) is
// the same payload again, byte for byte: it is acted on once and confirmed the same way both
// times. TPCMs reuse inumbers (counters wrap, some send a constant), so a payload that differs,
// or one whose inumber a command from another source used since, is a new command.
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

interface Seen { digest: string; at: number; result: Promise<Confirmation> }

const keyOf = (id: string, inumber: string) => `${id}\u0000${inumber}`;

/** What tells two payloads apart: a digest, so an entry holds 44 characters whatever the payload's size. */
export function digestOf(payload: Buffer): string {
  return createHash('sha256').update(payload).digest('base64');
}

export class RecentCommands {
  private readonly seen = new Map<string, Seen>();

  /** How the earlier delivery of this very payload was confirmed; undefined for a new command. */
  redelivery(id: string, inumber: string, digest: string, now: number): Promise<Confirmation> | undefined {
    const s = this.seen.get(keyOf(id, inumber));
    return s && s.digest === digest && now - s.at < REDELIVERY_MS ? s.result : undefined;
  }

  remember(id: string, inumber: string, digest: string, now: number, result: Promise<Confirmation>): void {
    const key = keyOf(id, inumber);
    // Deleted first, so the newest use of an inumber is the last to leave.
    this.seen.delete(key);
    this.seen.set(key, { digest, at: now, result });
    if (this.seen.size > RECENT_LIMIT) this.seen.delete(this.seen.keys().next().value!);
  }

  /**
   * Forgets the inumber on this display, so the next payload with it is acted on: another source
   * used it, or (given `result`) the command it came with was refused without being acted on.
   */
  forget(id: string, inumber: string, result?: Promise<Confirmation>): void {
    const key = keyOf(id, inumber);
    if (result === undefined || this.seen.get(key)?.result === result) this.seen.delete(key);
  }
}
