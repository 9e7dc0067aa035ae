// The room the log files (mlds.log, shown.log and their rotated files) may take: at most
// `logMaxMB` together, the oldest rotated files of the first name (mlds) dropped first, and a
// later name's (shown, what /history reads) only once it holds more than its share of the cap
// or the first has none left to drop; and never the last STATE_RESERVE_BYTES of a filesystem
// the state folder is on, which the commands need more than the logs do (docs/decisions.md,
// "Logging").
import { readdirSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/** Free space the logs leave to the state when both are on one filesystem. */
export const STATE_RESERVE_BYTES = 1 << 20;
/** The free space is asked again at least this often (other writers use the disk too). */
const STATFS_EVERY_MS = 1000;

export interface LogSpaceOptions {
  /** The log folder. */
  dir: string;
  /** What the log files may take together, rotated ones included. */
  maxBytes: number;
  /**
   * The daily files that live in the folder, in the order the cap gives them up (`mlds`, then
   * `shown`): a name's rotated files go before the next name's unless the next takes more than
   * its share (the cap divided among the names). A flood of service log lines never takes the
   * history, and a busy history never takes the whole service log.
   */
  names: string[];
  /** The state folder: while the logs share its filesystem they leave it `reserveBytes`. */
  stateDir?: string;
  reserveBytes?: number;
  now?: () => number;
}

export class LogSpace {
  /** A current file is rotated before it grows past this: an eighth of the cap. */
  readonly segmentBytes: number;
  readonly reserveBytes: number;
  private readonly dir: string;
  private readonly now: () => number;
  /** Free bytes at the last statfs, less what the logs wrote since; undefined while not shared (or unknown). */
  private free: number | undefined;
  private checkedAt = -Infinity;
  private spent = 0;

  constructor(private readonly opts: LogSpaceOptions) {
    this.dir = path.resolve(opts.dir);
    this.segmentBytes = Math.max(1, Math.floor(opts.maxBytes / 8));
    this.reserveBytes = opts.reserveBytes ?? STATE_RESERVE_BYTES;
    this.now = opts.now ?? Date.now;
  }

  /** What writing stops for, to show in the log file's problem. */
  get reason(): string {
    const reserve = this.reserveBytes >= 1 << 20 ? `${this.reserveBytes / (1 << 20)} MB` : `${this.reserveBytes} bytes`;
    return `under ${reserve} free on the filesystem shared with the state folder; left to the state`;
  }

  /**
   * Whether `bytes` more may be written: false when they would leave less than the reserve on
   * a filesystem shared with the state. Counts them as written when true.
   */
  room(bytes: number): boolean {
    if (!this.opts.stateDir) return true;
    const now = this.now();
    // Asked again once a second, and before the logs could have used half of what was left.
    if (
      this.free === undefined ||
      now - this.checkedAt >= STATFS_EVERY_MS ||
      (this.spent + bytes) * 2 > this.free - this.reserveBytes
    )
      this.check(now);
    if (this.free === undefined) return true;
    if (this.free - bytes < this.reserveBytes) return false;
    this.free -= bytes;
    this.spent += bytes;
    return true;
  }

  /** Removes rotated files in the order `names` gives until the cap leaves each current file room for a segment. */
  prune(): void {
    let files: string[];
    try {
      files = readdirSync(this.dir);
    } catch {
      return;
    }
    const share = this.opts.maxBytes / this.opts.names.length;
    const logs = this.opts.names.map((name) => {
      const re = rotatedName(name);
      const rotated: Rotated[] = [];
      for (const f of files) {
        const m = re.exec(f);
        if (!m) continue;
        const file = path.join(this.dir, f);
        const st = statSync(file, { throwIfNoEntry: false });
        if (st?.isFile()) rotated.push({ file, day: m[1], n: Number(m[2] ?? 1), mtime: st.mtimeMs, size: st.size });
      }
      rotated.sort(oldestFirst);
      const current = statSync(path.join(this.dir, `${name}.log`), { throwIfNoEntry: false })?.size ?? 0;
      return { rotated, bytes: current + rotated.reduce((sum, r) => sum + r.size, 0) };
    });
    const limit = this.opts.maxBytes - this.opts.names.length * this.segmentBytes;
    let total = logs.reduce((sum, l) => sum + l.rotated.reduce((s, r) => s + r.size, 0), 0);
    while (total > limit) {
      const from = logs.find((l) => l.rotated.length && l.bytes > share) ?? logs.find((l) => l.rotated.length);
      if (!from) break;
      const r = from.rotated.shift()!;
      try {
        unlinkSync(r.file);
      } catch {
        continue; /* tried again at the next rotation */
      }
      total -= r.size;
      from.bytes -= r.size;
    }
  }

  private check(now: number): void {
    this.checkedAt = now;
    this.spent = 0;
    this.free = undefined;
    try {
      if (statSync(this.dir).dev !== existingDev(this.opts.stateDir!)) return;
      const s = statfsSync(this.dir);
      this.free = s.bavail * s.bsize;
    } catch {
      /* unknown: the write itself reports a full disk */
    }
  }
}

interface Rotated {
  file: string;
  day: string;
  n: number;
  mtime: number;
  size: number;
}

/** Rotated files by the day they hold, then their index, then when they were last written. */
function oldestFirst(a: Rotated, b: Rotated): number {
  return a.day !== b.day ? (a.day < b.day ? -1 : 1) : a.n !== b.n ? a.n - b.n : a.mtime - b.mtime;
}

/** The device of `dir`, or of its nearest existing parent (the state folder is made after the log's first line). */
function existingDev(dir: string): number | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = statSync(d, { throwIfNoEntry: false });
    if (st) return st.dev;
    if (d === path.dirname(d)) return undefined;
  }
}

/** Rotated files of the log named `name`: name-DAY.log and name-DAY.N.log. */
export const rotatedName = (name: string): RegExp => new RegExp(`^${name}-(\\d{4}-\\d{2}-\\d{2})(?:\\.(\\d+))?\\.log$`);
