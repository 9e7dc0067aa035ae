// shown.log: one JSON line per change of what an area shows (ShownEntry, written by
// src/control/layers.ts), kept and rotated beside mlds.log with the same retention, and read back
// newest first for GET /history.
import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceProblem } from '../problem.js';
import { moveAsideUnlessRegular } from '../util/regular-file.js';
import { DailyFile } from './daily-file.js';
import { rotatedName, type LogSpace } from './log-space.js';

const NAME = 'shown';
const CHUNK = 64 * 1024;
/**
 * Lines share a write(2) for this long: a write per command would cost as much as the
 * command's mlds.log line (bench: +20 to +35 us of CPU per /mlds at one connection). A
 * process killed outright loses at most this much of the record; a stop writes it all.
 */
const BATCH_MS = 250;
/**
 * One /history reads at most this much of the files: a display seldom changed on a busy unit must not cost a scan of
 * weeks.
 */
const MAX_SCAN_BYTES = 64 * 1024 * 1024;

/** A showing as /history answers it: `end` is when the next change replaced it, when one did. */
/** One change of what an area shows, as shown.log holds it (one JSON object per line). */
export interface ShownEntry {
  id: string;
  layout: string;
  area: string;
  /** The request value; null for a defaultValue or blank. */
  value: string | null;
  /** request, default (its defaultValue) or none (blank). */
  content: 'request' | 'default' | 'none';
  /** Where the command came from (http, cron, poller, replay...), or ttl when its ttl put the default back. */
  source: string;
  inumber: string | null;
  priority: number;
  start: string;
  /** When it is due to end (its ttl or its level's expiry); null: until something replaces it. */
  end: string | null;
}

export type HistoryEntry = ShownEntry;

export interface HistoryAnswer {
  entries: HistoryEntry[];
  /** False when the scan stopped at its byte limit before reaching `since` or the oldest file. */
  complete: boolean;
}

export class ShownLog {
  private readonly file: DailyFile;
  private readonly dir: string;
  /** A shown.log that was not a regular file and was moved aside: shown until the service restarts. */
  private setAside: ServiceProblem | undefined;

  /** `warn` logs what was set aside. */
  constructor(
    dir: string,
    retentionDays: number,
    space?: LogSpace,
    private readonly warn?: (message: string) => void,
  ) {
    this.dir = path.resolve(dir);
    this.file = new DailyFile({
      dir: this.dir,
      retentionDays,
      name: NAME,
      batchMs: BATCH_MS,
      space,
      onSetAside: (m) => this.noteSetAside(m),
    });
    // Now, not at the first line written: /history reads the file before anything is written.
    const aside = moveAsideUnlessRegular(this.file.file);
    if (aside) this.noteSetAside(aside);
  }

  write(line: string): void {
    this.file.write(line);
  }

  /** For /status and /info: what was set aside, and a file that cannot be written. */
  problems(): ServiceProblem[] {
    const p = this.file.problem();
    return [
      ...(this.setAside ? [this.setAside] : []),
      ...(p ? [{ source: 'history', message: p.message, since: new Date(p.since).toISOString() }] : []),
    ];
  }

  private noteSetAside(message: string): void {
    if (this.setAside?.message === message) return;
    this.setAside = { source: 'history', message, since: new Date().toISOString() };
    this.warn?.(message);
  }

  close(): Promise<void> {
    return this.file.close();
  }

  /** The display's latest changes, newest first, back to `since` (ms epoch) and at most `limit` of them. */
  async history(id: string, since: number | undefined, limit: number): Promise<HistoryAnswer> {
    await this.file.flush();
    const entries: HistoryEntry[] = [];
    // What replaced each showing: the next line of the same area and layout, or the next line of another layout.
    const laterArea = new Map<string, string>();
    const laterLayout = new Map<string, string>();
    const needle = `"id":${JSON.stringify(id)},`;
    let budget = MAX_SCAN_BYTES;
    for (const file of await this.files()) {
      for await (const line of linesBackward(file, (n) => {
        budget -= n;
        return budget > 0;
      })) {
        if (!line.includes(needle)) continue;
        let e: ShownEntry;
        try {
          e = JSON.parse(line) as ShownEntry;
        } catch {
          continue;
        }
        if (e.id !== id) continue;
        if (since !== undefined && Date.parse(e.start) < since) return { entries, complete: true };
        let end = laterArea.get(`${e.layout}\u0000${e.area}`);
        for (const [layout, start] of laterLayout)
          if (layout !== e.layout && (end === undefined || start < end)) end = start;
        laterArea.set(`${e.layout}\u0000${e.area}`, e.start);
        laterLayout.set(e.layout, e.start);
        entries.push({
          id: e.id,
          layout: e.layout,
          area: e.area,
          value: e.value,
          content: e.content,
          source: e.source,
          inumber: e.inumber,
          priority: e.priority,
          start: e.start,
          end: end ?? e.end,
        });
        if (entries.length >= limit) return { entries, complete: true };
      }
      if (budget <= 0) return { entries, complete: false };
    }
    return { entries, complete: true };
  }

  /** shown.log, then the rotated files, newest first. */
  private async files(): Promise<string[]> {
    const rotated = rotatedName(NAME);
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const older = names
      .map((n) => ({ n, m: rotated.exec(n) }))
      .filter((x) => x.m !== null)
      .sort((a, b) => (a.m![1] === b.m![1] ? Number(b.m![2] ?? 1) - Number(a.m![2] ?? 1) : a.m![1] < b.m![1] ? 1 : -1));
    return [`${NAME}.log`, ...older.map((x) => x.n)].map((n) => path.join(this.dir, n));
  }
}

/**
 * The file's lines, last first, read in chunks from the end; `more(bytes)` stops the reading
 * when it answers false. A FIFO or device is skipped unread: reading it could wait forever.
 */
async function* linesBackward(file: string, more: (bytes: number) => boolean): AsyncGenerator<string> {
  let fh;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return;
    let pos = st.size;
    let rest = Buffer.alloc(0);
    while (pos > 0) {
      const n = Math.min(CHUNK, pos);
      pos -= n;
      const buf = Buffer.alloc(n);
      await fh.read(buf, 0, n, pos);
      const data = Buffer.concat([buf, rest]);
      // Split on bytes: a chunk may start inside a multi-byte character, never inside a newline.
      let end = data.length;
      for (let i = data.length - 1; i >= 0; i--) {
        if (data[i] !== 0x0a) continue;
        if (end > i + 1) yield data.toString('utf8', i + 1, end);
        end = i;
      }
      rest = data.subarray(0, end);
      if (!more(n)) return;
    }
    if (rest.length) yield rest.toString('utf8');
  } finally {
    await fh.close();
  }
}
