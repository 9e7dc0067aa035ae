// Commands from the broker on their way to the control path, one at a time, a bounded number
// waiting. A broker hands over whatever its publishers send (150,000 commands in 0.36 s took a
// unit to 587 MB and stalled /status for seconds while each waited as a promise): what does not
// fit is refused at once, so memory stays bounded whatever the flood.

/** Commands waiting for the control path, and their payload bytes; beyond either they are shed (MLDS_BUSY). */
export const INTAKE_LIMIT = 1000;
export const INTAKE_BYTES = 8 * 1024 * 1024;
/**
 * Longest the queue is worked on before the event loop has a turn. Each command is a chain of
 * promises: without the turn, a full queue ran through without a frame drawn or a /status
 * answered, and each applied command held its state until a frame came.
 */
const SLICE_MS = 5;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Intake<T> {
  private readonly waiting: Array<{ item: T; bytes: number }> = [];
  private bytes = 0;
  private draining = false;

  /** `run` takes one command through the control path; the next starts when it resolves. */
  constructor(
    private readonly run: (item: T) => Promise<void>,
    private readonly limit = INTAKE_LIMIT,
    private readonly maxBytes = INTAKE_BYTES,
  ) {}

  /** Queues `item` of `bytes`; false when the queue is full (the caller sheds it). */
  offer(item: T, bytes: number): boolean {
    if (this.waiting.length >= this.limit || this.bytes + bytes > this.maxBytes) return false;
    this.waiting.push({ item, bytes });
    this.bytes += bytes;
    if (!this.draining) void this.drain();
    return true;
  }

  get length(): number {
    return this.waiting.length;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      let slice = performance.now();
      for (let w = this.waiting.shift(); w !== undefined; w = this.waiting.shift()) {
        this.bytes -= w.bytes;
        try {
          await this.run(w.item);
        } catch {
          /* run reports its own failures */
        }
        if (performance.now() - slice >= SLICE_MS) {
          await turn();
          slice = performance.now();
        }
      }
    } finally {
      this.draining = false;
    }
  }
}
