import path from 'node:path';
import { readJsonFile, writeFileAtomic } from '../util/atomic-file.js';
import type { CommandRecord } from './state.js';

const WRITE_DELAY_MS = 200;

export interface SavedState {
  /** Last accepted request per display id: what the boot replay applies. */
  lastRequest: Record<string, CommandRecord>;
  /** Last confirmation sent per display id, so an equal one is not sent again after a restart. */
  lastFeedback: Record<string, { confirm: number; inumber: string }>;
}

/**
 * The state directory's one file. Writes are serialized and atomic; changes within
 * WRITE_DELAY_MS of each other share one write (a burst of commands costs one fsync),
 * and flush() writes whatever is pending at once (shutdown, tests).
 */
export class StateStore {
  private data: SavedState = { lastRequest: {}, lastFeedback: {} };
  private writing: Promise<void> = Promise.resolve();
  private pendingWrite: Promise<void> | undefined;
  private start: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, 'state.json');
  }

  async load(): Promise<SavedState> {
    const saved = await readJsonFile<Partial<SavedState>>(this.file);
    this.data = { lastRequest: saved?.lastRequest ?? {}, lastFeedback: saved?.lastFeedback ?? {} };
    return this.data;
  }

  get(): SavedState {
    return this.data;
  }

  setLastRequest(id: string, rec: CommandRecord): Promise<void> {
    this.data.lastRequest[id] = rec;
    return this.schedule();
  }

  setLastFeedback(id: string, fb: { confirm: number; inumber: string }): Promise<void> {
    this.data.lastFeedback[id] = fb;
    return this.schedule();
  }

  /** Writes what is pending now; resolves when everything set so far is on disk. */
  async flush(): Promise<void> {
    const pending = this.pendingWrite;
    this.startPendingWrite();
    await pending;
    await this.writing;
  }

  /** Resolves (or rejects) with the write that will carry this change. */
  private schedule(): Promise<void> {
    if (!this.pendingWrite) {
      const started = new Promise<void>((resolve) => { this.start = resolve; });
      this.timer = setTimeout(() => this.startPendingWrite(), WRITE_DELAY_MS);
      this.pendingWrite = started.then(() => {
        // Serialized after the previous write; serializes the data as it is by then.
        const w = this.writing.then(() => writeFileAtomic(this.file, JSON.stringify(this.data, null, 1)));
        this.writing = w.catch(() => undefined);
        return w;
      });
    }
    return this.pendingWrite;
  }

  private startPendingWrite(): void {
    clearTimeout(this.timer);
    const start = this.start;
    this.pendingWrite = undefined;
    this.start = undefined;
    start?.();
  }
}
