/**
 * Journal lines of one turn of the event loop in one write(2). The first line of a turn is
 * written at once, so one command at a time costs what it did; the lines after it in the same
 * turn (with many connections one poll phase brings dozens of commands) wait for the turn's end
 * and go out together, a write(2) each being most of what storing a command costs (issue 13).
 * A waiting line's caller gets a promise of it being in the kernel and acknowledges only then.
 */
export class TurnBatch {
  private inTurn = false;
  private lines: string[] = [];
  private done: Promise<void> | undefined;
  private resolveDone: (() => void) | undefined;

  /** `write` puts text into the journal (or keeps the change in memory when it cannot: its own report). */
  constructor(private readonly write: (text: string) => void) {}

  /** Undefined when the line is in the kernel already; otherwise resolves once it is. */
  add(line: string): Promise<void> | undefined {
    if (!this.inTurn) {
      this.inTurn = true;
      setImmediate(this.endTurn);
      this.write(line);
      return undefined;
    }
    this.lines.push(line);
    this.done ??= new Promise<void>((resolve) => { this.resolveDone = resolve; });
    return this.done;
  }

  /** Writes the waiting lines now: at the turn's end, and before any other line so the order holds. */
  drain(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    const resolve = this.resolveDone;
    this.lines = [];
    this.done = undefined;
    this.resolveDone = undefined;
    this.write(text);
    resolve?.();
  }

  private readonly endTurn = (): void => {
    this.inTurn = false;
    this.drain();
  };
}
