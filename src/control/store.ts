import { closeSync, fdatasync, ftruncateSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ServiceProblem } from '../problem.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { openForAppend } from '../util/regular-file.js';
import type { SavedLayer } from './layers.js';
import { emptyState, journalLine, type SavedFeedback, type SavedState } from './saved-state.js';
import { journalFile, journals, readStateFolder, removeStaleTemps, type StoreLog } from './state-load.js';
import type { CommandRecord } from './state.js';
import { TurnBatch } from './turn-batch.js';

export type { SavedState };

/** Changes within this long of each other share one fdatasync (a burst costs one). */
const SYNC_DELAY_MS = 200;
/** A journal this large is folded into a new snapshot. */
const COMPACT_BYTES = 256 * 1024;
/** While the folder cannot be written, a new snapshot is tried this often. */
const RETRY_MS = 2000;

export interface StoreOptions {
  log?: StoreLog;
  retryMs?: number;
}

/**
 * The state directory: a snapshot, state.json (written atomically with fsync), and a
 * journal, state.journal.N, that gets one line per change before the change's setter
 * returns. The line is in the kernel when the caller acknowledges the change, so a killed
 * process loses nothing acknowledged; one fdatasync per SYNC_DELAY_MS makes it survive a
 * power cut. An append costs a few microseconds where rewriting the file cost hundreds
 * (docs/decisions.md). Loading reads the snapshot and applies journals from its `gen` on.
 *
 * A file that cannot be read is set aside and the service starts without it. A command's
 * change (noteLastRequest, noteLayers) that cannot be written is taken back, here and by the
 * caller's `undo`, and its promise rejects: the caller must not acknowledge it; while the
 * folder keeps failing, unwritable() says so before anything is changed. Other changes
 * (confirmations sent) stay in memory. A new snapshot is tried every retryMs until one works;
 * problems() (/status) and the log say so.
 */
export class StateStore {
  private data: SavedState = emptyState();
  readonly file: string;
  private readonly dir: string;
  private readonly log: StoreLog | undefined;
  private readonly retryMs: number;
  /** What load() found wrong; shown until the service restarts. */
  private loaded: ServiceProblem[] = [];
  private failure: { since: number; error: string } | undefined;
  /** The journal being appended to: its generation, descriptor and bytes written. */
  private gen = 0;
  private fd: number | undefined;
  private journalBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];
  /** Syncs and snapshots, one after another. */
  private chain: Promise<void> = Promise.resolve();
  /** Until load(), changes stay in memory (an offline controller never loads). */
  private opened = false;
  private readonly turn = new TurnBatch((text) => this.write(text));

  constructor(dir: string, opts: StoreOptions = {}) {
    this.dir = path.resolve(dir);
    this.file = path.join(this.dir, 'state.json');
    this.log = opts.log;
    this.retryMs = opts.retryMs ?? RETRY_MS;
  }

  async load(): Promise<SavedState> {
    const found = await readStateFolder(this.dir, this.log);
    this.data = found.data;
    this.loaded = found.problems;
    // Next generation past everything found; the snapshot also finds a read-only or full folder now.
    this.gen = found.gen;
    removeStaleTemps(this.dir);
    this.opened = true;
    await this.snapshot();
    return this.data;
  }

  get(): SavedState {
    return this.data;
  }

  /** In the kernel before this returns; resolves once fdatasynced (or failed: see problems()). */
  setLastRequest(id: string, rec: CommandRecord): Promise<void> {
    this.data.lastRequest[id] = rec;
    return this.append(journalLine('r', id, rec));
  }

  /**
   * setLastRequest for every command: lines of a turn share a write (turn-batch.ts); acknowledge
   * once it resolves. When the line cannot be written the change is taken back (`undo` too) and
   * the promise rejects.
   */
  noteLastRequest(id: string, rec: CommandRecord, undo?: () => void): Promise<void> | undefined {
    const before = this.data.lastRequest[id];
    this.data.lastRequest[id] = rec;
    return this.turn.add(journalLine('r', id, rec), () => {
      if (before === undefined) delete this.data.lastRequest[id];
      else this.data.lastRequest[id] = before;
      undo?.();
    });
  }

  /** The levels above priority 0 of a display after a change (none: the entry goes); as noteLastRequest. */
  noteLayers(id: string, layers: SavedLayer[], undo?: () => void): Promise<void> | undefined {
    const before = this.data.layers[id];
    if (layers.length) this.data.layers[id] = layers;
    else delete this.data.layers[id];
    return this.turn.add(journalLine('l', id, layers), () => {
      if (before === undefined) delete this.data.layers[id];
      else this.data.layers[id] = before;
      undo?.();
    });
  }

  /**
   * Why a command's change cannot be stored now (the folder failed and no snapshot has worked
   * since); undefined when it can be, and for a store never loaded (it keeps changes in memory).
   */
  unwritable(): string | undefined {
    if (!this.opened || (!this.failure && this.fd !== undefined)) return undefined;
    return `the state folder ${this.dir} cannot be written (${this.failure?.error ?? 'no journal open'})`;
  }

  setLastFeedback(id: string, fb: SavedFeedback): Promise<void> {
    this.data.lastFeedback[id] = fb;
    return this.append(journalLine('f', id, fb));
  }

  problems(): ServiceProblem[] {
    const out = [...this.loaded];
    if (this.failure) {
      out.push({
        source: 'state',
        message:
          `the state folder ${this.dir} cannot be written (${this.failure.error}); commands are refused ` +
          `(MLDS_STATE_UNWRITABLE) until it can be, tried every ${this.retryMs / 1000} s`,
        since: new Date(this.failure.since).toISOString(),
      });
    }
    return out;
  }

  /** Writes everything into state.json now (shutdown, tests); not retried by itself after. */
  async flush(): Promise<void> {
    this.turn.drain();
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.queue(() => this.snapshot());
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A change kept in memory when it cannot be written (the retried snapshot will hold it). */
  private append(line: string): Promise<void> {
    this.turn.drain();
    if (!this.opened || this.write(line)) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /**
   * The text into the journal and an fdatasync scheduled; the error when it did not get there
   * whole. Undefined too before load(): an offline store keeps everything in memory.
   */
  private write(text: string): Error | undefined {
    if (!this.opened) return undefined;
    if (this.failure || this.fd === undefined) {
      this.schedule(this.retryMs);
      return new Error(this.unwritable());
    }
    try {
      const n = writeSync(this.fd, text);
      if (n !== Buffer.byteLength(text)) {
        // The lines of a write are taken back together: none may stay whole in the journal
        // (loading would apply it) nor cut (loading would report it).
        try {
          ftruncateSync(this.fd, this.journalBytes);
        } catch {
          /* then loading drops the cut line and reports it */
        }
        throw Object.assign(new Error('ENOSPC: short write to the state journal'), { code: 'ENOSPC' });
      }
      this.journalBytes += n;
    } catch (err) {
      this.failed(err as Error);
      return err as Error;
    }
    this.schedule(SYNC_DELAY_MS);
    return undefined;
  }

  private schedule(ms: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.queue(() => (this.failure || this.journalBytes > COMPACT_BYTES ? this.snapshot() : this.sync()));
    }, ms);
  }

  /** Runs `task` after the ones before it; resolves the changes made before it started. */
  private queue(task: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(async () => {
      const waiters = this.waiters;
      this.waiters = [];
      try {
        await task();
      } catch (err) {
        this.failed(err as Error);
      } finally {
        for (const w of waiters) w();
      }
    });
    return this.chain;
  }

  private async sync(): Promise<void> {
    const fd = this.fd;
    if (fd === undefined) return;
    await new Promise<void>((resolve) =>
      fdatasync(fd, (err) => {
        if (err) this.failed(err);
        resolve();
      }),
    );
  }

  /**
   * A new journal generation, then everything in memory into state.json with that `gen`:
   * older journals are then contained in it and removed. Appends made while the snapshot
   * is written go to the new journal, which loading applies over it.
   */
  private async snapshot(): Promise<void> {
    // Lines still waiting for their turn's end go first: the snapshot must not hold a change
    // whose line then fails and is taken back.
    this.turn.drain();
    try {
      if (this.fd === undefined || this.journalBytes > 0) {
        const fd = openForAppend(journalFile(this.dir, this.gen + 1), 0o644);
        const old = this.fd;
        this.fd = fd;
        this.gen++;
        this.journalBytes = 0;
        if (old !== undefined) closeSync(old);
      }
      const gen = this.gen;
      await writeFileAtomic(this.file, JSON.stringify({ gen, ...this.data }));
      for (const j of journals(this.dir)) if (j < gen) unlinkSync(journalFile(this.dir, j));
    } catch (err) {
      this.failed(err as Error);
      return;
    }
    if (this.failure) {
      this.log?.warn(
        { dir: this.dir, since: new Date(this.failure.since).toISOString() },
        'the state folder is written again',
      );
      this.failure = undefined;
    }
  }

  private failed(err: Error): void {
    if (!this.failure) {
      this.failure = { since: Date.now(), error: err.message.split(', ')[0] };
      this.log?.error(
        { dir: this.dir, err: err.message },
        'the state cannot be saved; commands are refused until the folder is writable again',
      );
    }
    this.schedule(this.retryMs);
    this.timer?.unref();
  }
}
