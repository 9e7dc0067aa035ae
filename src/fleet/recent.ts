// The commands seen lately, by display and inumber, with how each was confirmed: a QoS 1
// redelivery (the broker resends what it saw no PUBACK for) is acted on once and confirmed
// the same way both times. Bounded: the oldest entry leaves first.

export interface Confirmation {
  inumber: string | null;
  confirm: 0 | 1 | 2;
  id: string | null;
  code: string | null;
  message: string;
}

export const RECENT_LIMIT = 1000;

export class RecentCommands {
  private readonly seen = new Map<string, Promise<Confirmation>>();

  get(key: string): Promise<Confirmation> | undefined {
    return this.seen.get(key);
  }

  set(key: string, result: Promise<Confirmation>): void {
    this.seen.set(key, result);
    if (this.seen.size > RECENT_LIMIT) this.seen.delete(this.seen.keys().next().value!);
  }

  /** A command refused without being acted on: the next delivery is acted on. */
  forget(key: string, result: Promise<Confirmation>): void {
    if (this.seen.get(key) === result) this.seen.delete(key);
  }
}
