/**
 * Journal lines of one turn of the event loop in one write(2). The first line of a turn is
 * written at once, so one command at a time costs what it did; the lines after it in the same
 * turn (with many connections one poll phase brings dozens of commands) wait for the turn's end
 * and go out together, a write(2) each being most of what storing a command costs.
 * A waiting line's caller gets a promise of it being in the kernel and acknowledges only then.
 *
 * A line that cannot be written takes its change back: each line comes with an `undo`, run
 * before its promise rejects, newest first when a whole turn's write failed (a later change
 * of the turn may be built on an earlier one).
 */
export class TurnBatch {
  private inTurn = false;
  private lines: string[] = [];
  private undos: Array<() => void> = [];
  private done: Promise<void> | undefined;
  private settle: ((err: Error | undefined) => void) | undefined;

  /** `write` puts text into the journal; it answers the error when the text did not get there whole. */
  constructor(private readonly write: (text: string) => Error | undefined) {}

  /**
   * Undefined when the line is in the kernel already; otherwise resolves once it is, or rejects
   * (after `undo` ran) when it could not be written: then a rejected promise is returned at once.
   */
  add(line: string, undo: () => void = noop): Promise<void> | undefined {
    if (!this.inTurn) {
      this.inTurn = true;
      setImmediate(this.endTurn);
      const err = this.write(line);
      if (!err) return undefined;
      undo();
      return Promise.reject(err);
    }
    this.lines.push(line);
    this.undos.push(undo);
    if (!this.done) {
      this.done = new Promise<void>((resolve, reject) => {
        this.settle = (err) => (err ? reject(err) : resolve());
      });
      // A caller that does not wait for it still has its change taken back; nothing is unhandled.
      this.done.catch(noop);
    }
    return this.done;
  }

  /** Writes the waiting lines now: at the turn's end, and before any other line so the order holds. */
  drain(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    const undos = this.undos;
    const settle = this.settle;
    this.lines = [];
    this.undos = [];
    this.done = undefined;
    this.settle = undefined;
    const err = this.write(text);
    if (err) for (let i = undos.length - 1; i >= 0; i--) undos[i]();
    settle?.(err);
  }

  private readonly endTurn = (): void => {
    this.inTurn = false;
    this.drain();
  };
}

function noop(): void {
  /* nothing to take back */
}
