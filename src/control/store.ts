import path from 'node:path';
import { readJsonFile, writeFileAtomic } from '../util/atomic-file.js';
import type { CommandRecord } from './state.js';

export interface SavedState {
  /** Last accepted request per display id: what the boot replay applies. */
  lastRequest: Record<string, CommandRecord>;
  /** Last confirmation sent per display id, so an equal one is not sent again after a restart. */
  lastFeedback: Record<string, { confirm: number; inumber: string }>;
}

/**
 * The state directory's one file. Writes are serialized and atomic, and a burst of
 * commands coalesces into one write of the newest state.
 */
export class StateStore {
  private data: SavedState = { lastRequest: {}, lastFeedback: {} };
  private writing: Promise<void> = Promise.resolve();
  private pending = false;
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

  /** Resolves when everything set so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  private schedule(): Promise<void> {
    if (!this.pending) {
      this.pending = true;
      this.writing = this.writing.then(async () => {
        this.pending = false;
        await writeFileAtomic(this.file, JSON.stringify(this.data, null, 1));
      });
    }
    return this.writing;
  }
}
