import { closeSync, existsSync, fstatSync, readdirSync, renameSync, statSync, unlinkSync, write } from 'node:fs';
import path from 'node:path';
import { moveAsideUnlessRegular, openForAppend } from '../util/regular-file.js';
import { rotatedName, type LogSpace } from './log-space.js';

export interface DailyFileOptions {
  dir: string;
  /** Rotated files whose day is more than this many days before today are removed. */
  retentionDays: number;
  /** Characters of lines kept in memory while the file cannot be written; lines beyond are dropped and counted. */
  maxPendingChars?: number;
  /** How often a failed file is tried again. */
  retryMs?: number;
  now?: () => number;
  /** The file's name without `.log`: `mlds` (the service log, the default) or `shown` (shown.log). */
  name?: string;
  /** Lines wait up to this long to share a write(2) (0, the default: the end of the turn). */
  batchMs?: number;
  /** Called when writing starts failing (with the problem) and when it works again (undefined). */
  onChange?: (problem: LogFileProblem | undefined, recovered?: { dropped: number; since: number }) => void;
  /** Called when mlds.log was not a regular file (a FIFO...) and was moved aside, with what was done. */
  onSetAside?: (message: string) => void;
  /**
   * The logs' size cap and the state's reserve (log-space.ts): rotated by size too, and held back when the reserve
   * would be touched.
   */
  space?: LogSpace;
}

export interface LogFileProblem {
  message: string;
  since: number;
}

/** The local calendar day of `ms` as YYYY-MM-DD. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * Today's log is mlds.log; on the first line of a new day it becomes mlds-YYYY-MM-DD.log
 * (the day it holds) and rotated files past the retention are removed. With a LogSpace it
 * also becomes mlds-YYYY-MM-DD.N.log before it outgrows a segment of the size cap, and lines
 * that would eat into the state's reserve wait as on a full disk.
 *
 * Logging must never take the display down: a file that cannot be opened or written
 * (disk full, read-only, removed) keeps its lines in memory up to a bound, drops and
 * counts the rest, reports the problem, and is tried again every retryMs. Nothing here
 * throws or emits 'error'.
 */
export class DailyFile {
  private readonly dir: string;
  private readonly maxPending: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private readonly name: string;
  private readonly rotated: RegExp;
  private fd: number | undefined;
  /** The day whose lines mlds.log holds. */
  private day: string | undefined;
  /** Bytes in mlds.log. */
  private size = 0;
  /** Lines not yet written, oldest first; `head` is the rest of a line a short write cut. */
  private pending: string[] = [];
  private pendingChars = 0;
  private head: Buffer | undefined;
  private writing = false;
  private scheduled = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private failure: { since: number; error: string } | undefined;
  private dropped = 0;
  private drained: Array<() => void> = [];

  constructor(private readonly opts: DailyFileOptions) {
    this.dir = path.resolve(opts.dir);
    this.maxPending = opts.maxPendingChars ?? 1 << 20;
    this.retryMs = opts.retryMs ?? 2000;
    this.now = opts.now ?? Date.now;
    this.name = opts.name ?? 'mlds';
    this.rotated = rotatedName(this.name);
    this.prune();
  }

  get file(): string {
    return path.join(this.dir, `${this.name}.log`);
  }

  /** pino's stream interface: one JSON line per call. */
  write(line: string): boolean {
    if (this.closed) return true;
    this.pending.push(line);
    this.pendingChars += line.length;
    this.trim();
    // Lines logged in one turn of the event loop (or batchMs) go out in one write(2).
    if (!this.writing && !this.retry) this.later();
    return true;
  }

  /** Once this much waits, a batchMs file writes without waiting longer. */
  private static readonly BATCH_CHARS = 64 * 1024;

  private later(): void {
    if (this.opts.batchMs && this.pendingChars >= DailyFile.BATCH_CHARS) return this.pump();
    if (this.scheduled) return;
    this.scheduled = true;
    const go = () => {
      this.scheduled = false;
      this.pump();
    };
    if (this.opts.batchMs) setTimeout(go, this.opts.batchMs).unref();
    else setImmediate(go);
  }

  problem(): LogFileProblem | undefined {
    if (!this.failure) return undefined;
    const waiting = this.pending.length + (this.head ? 1 : 0);
    return {
      message:
        `the log file ${this.file} cannot be written (${this.failure.error}); ${this.dropped} line(s) ` +
        `dropped, ${waiting} waiting`,
      since: this.failure.since,
    };
  }

  /** Resolves once the lines written so far are in the file (or failed to get there: see problem()). */
  flush(): Promise<void> {
    if (this.closed || this.retry || (!this.pending.length && !this.head && !this.writing)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.drained.push(resolve);
      this.pump();
    });
  }

  /** Writes what is pending (one attempt when the file is failing) and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    if (this.pending.length || this.head || this.writing) {
      await new Promise<void>((resolve) => {
        this.drained.push(resolve);
        this.pump();
      });
    }
    this.closed = true;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private pump(): void {
    // While failing, only the retry timer (or close) tries again.
    if (this.writing || this.closed || this.retry) return;
    if (!this.head && !this.pending.length) return this.settle();
    this.writing = true;
    // The cut line's rest goes first and alone: a failure then leaves whole lines to drop.
    const head = this.head;
    const lines = head ? [] : this.pending;
    const data = head ?? Buffer.from(lines.join(''));
    const space = this.opts.space;
    try {
      this.ensureFile(data.length);
      if (space && !space.room(data.length)) throw Object.assign(new Error(space.reason), { code: 'ENOSPC' });
    } catch (err) {
      return this.fail(err as NodeJS.ErrnoException);
    }
    if (!head) {
      this.pending = [];
      this.pendingChars = 0;
    }
    write(this.fd!, data, 0, data.length, null, (err, n) => {
      if (err) {
        if (!head) this.giveBack(lines, 0);
        return this.fail(err);
      }
      this.size += n;
      if (head) this.head = n < data.length ? head.subarray(n) : undefined;
      else if (n < data.length) this.giveBack(lines, n);
      this.writing = false;
      if (!this.head && !this.pending.length) this.recovered();
      if (this.opts.batchMs && this.pending.length && !this.head && !this.drained.length) this.later();
      else this.pump();
    });
  }

  /** Puts the lines a write did not finish back in front of the queue, the cut one as `head`. */
  private giveBack(lines: string[], written: number): void {
    let i = 0;
    for (; i < lines.length; i++) {
      const len = Buffer.byteLength(lines[i]);
      if (written < len) break;
      written -= len;
    }
    if (written > 0) this.head = Buffer.from(lines[i++]).subarray(written);
    const rest = lines.slice(i);
    this.pending = rest.concat(this.pending);
    for (const l of rest) this.pendingChars += l.length;
    this.trim();
  }

  /** Keeps the newest lines within the bound; the oldest are dropped and counted. */
  private trim(): void {
    let drop = 0;
    while (this.pendingChars > this.maxPending && drop < this.pending.length) {
      this.pendingChars -= this.pending[drop++].length;
    }
    if (drop) {
      this.pending.splice(0, drop);
      this.dropped += drop;
    }
  }

  /**
   * Opens mlds.log, first rotating it when it holds an earlier day's lines or `next` more bytes would outgrow its
   * segment.
   */
  private ensureFile(next: number): void {
    const today = dayOf(this.now());
    const full = this.opts.space !== undefined && this.size > 0 && this.size + next > this.opts.space.segmentBytes;
    if (this.fd !== undefined && this.day === today && !full) return;
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    // A FIFO or device is never opened for appending (that could block the whole service) nor rotated.
    const aside = moveAsideUnlessRegular(this.file);
    if (aside) this.opts.onSetAside?.(aside);
    if (this.day === undefined && existsSync(this.file)) this.day = dayOf(statSync(this.file).mtimeMs);
    if (this.day !== undefined && (this.day !== today || full) && existsSync(this.file)) {
      renameSync(this.file, this.freeName(this.day));
      this.prune();
    }
    this.fd = openForAppend(this.file, 0o640);
    this.size = fstatSync(this.fd).size;
    this.day = today;
  }

  /**
   * name-DAY.log, or name-DAY.N.log after the highest N of that day (a restart or the size
   * cap made more than one that day; older ones may have been dropped, so never a gap's N).
   */
  private freeName(day: string): string {
    let last = 0;
    try {
      for (const f of readdirSync(this.dir)) {
        const m = this.rotated.exec(f);
        if (m && m[1] === day) last = Math.max(last, Number(m[2] ?? 1));
      }
    } catch {
      /* then the first name is tried */
    }
    const name = (i: number) =>
      path.join(this.dir, i === 1 ? `${this.name}-${day}.log` : `${this.name}-${day}.${i}.log`);
    let i = last + 1;
    while (existsSync(name(i))) i++;
    return name(i);
  }

  private prune(): void {
    const d = new Date(this.now());
    const cutoff = dayOf(new Date(d.getFullYear(), d.getMonth(), d.getDate() - this.opts.retentionDays).getTime());
    try {
      for (const name of readdirSync(this.dir)) {
        const m = this.rotated.exec(name);
        if (m && m[1] < cutoff) unlinkSync(path.join(this.dir, name));
      }
    } catch {
      /* a folder that cannot be read or changed now is pruned at the next rotation */
    }
    this.opts.space?.prune();
  }

  private fail(err: NodeJS.ErrnoException): void {
    this.writing = false;
    if (this.fd !== undefined) {
      // Opened again on the retry: the folder may have been remounted or recreated meanwhile.
      try {
        closeSync(this.fd);
      } catch {
        /* already unusable */
      }
      this.fd = undefined;
    }
    const first = !this.failure;
    // "ENOSPC: no space left on device, write" -> without the syscall.
    this.failure = { since: this.failure?.since ?? this.now(), error: err.message.split(', ')[0] };
    if (first) this.opts.onChange?.(this.problem());
    if (this.drained.length) return this.settle();
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.pump();
    }, this.retryMs);
    this.retry.unref();
  }

  private recovered(): void {
    if (!this.failure) return;
    const info = { dropped: this.dropped, since: this.failure.since };
    this.failure = undefined;
    this.dropped = 0;
    this.opts.onChange?.(undefined, info);
  }

  private settle(): void {
    const waiters = this.drained;
    this.drained = [];
    for (const w of waiters) w();
  }
}
