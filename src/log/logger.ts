import { pino, type Logger } from 'pino';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ServiceProblem } from '../problem.js';
import { DailyFile, type DailyFileOptions } from './daily-file.js';
import type { LogSpace } from './log-space.js';
import { gatheredStdout } from './stdout.js';

export type { Logger };

export interface LogOptions {
  /** Folder for the daily files; undefined logs to stdout only. */
  dir?: string;
  retentionDays: number;
  /** Also write to stdout (the journal, under systemd). */
  stdout: boolean;
  level?: string;
  /** Tests: how often a failing log file is tried again, and the bound on waiting lines. */
  file?: Pick<DailyFileOptions, 'retryMs' | 'maxPendingChars' | 'now'>;
  /** The size cap and the state's reserve, shared with shown.log. */
  space?: LogSpace;
}

export interface ServiceLog {
  log: Logger;
  /** The log file's current problem (disk full, read-only...), for /status. */
  problems(): ServiceProblem[];
  close(): Promise<void>;
}

/** The log folder does not exist and cannot be made: the service cannot start as configured (exit 78). */
export class LogDirError extends Error {}

export function createLogger(opts: LogOptions): ServiceLog {
  const streams: pino.StreamEntry[] = [];
  const level = (opts.level ?? 'info') as pino.Level;
  let file: DailyFile | undefined;
  /** A log file that was not a regular file and was moved aside: shown until the service restarts. */
  let setAside: ServiceProblem | undefined;
  if (opts.dir) {
    const dir = path.resolve(opts.dir);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new LogDirError(`the log folder ${dir} cannot be created (${(err as Error).message.split(', ')[0]})`);
    }
    file = new DailyFile({
      ...opts.file,
      dir,
      retentionDays: opts.retentionDays,
      space: opts.space,
      // Called from write callbacks only, never before `log` below exists.
      onChange: (problem, recovered) => {
        if (problem)
          log.error(
            { problem: problem.message },
            'the log file cannot be written; lines are kept in memory up to a bound, then dropped',
          );
        else if (recovered)
          log.warn(
            { dropped: recovered.dropped, since: new Date(recovered.since).toISOString() },
            'the log file is written again',
          );
      },
      onSetAside: (message) => {
        if (setAside?.message === message) return;
        setAside = { source: 'log', message, since: new Date().toISOString() };
        log.warn({}, message);
      },
    });
    streams.push({ stream: file, level });
  }
  const stdout = opts.stdout ? gatheredStdout() : undefined;
  if (stdout) streams.push({ stream: stdout, level });
  // The file reports through this logger (to stdout, and to the file once it is writable).
  // One destination needs no multistream in between (every command writes a line).
  const log = pino(
    { level, timestamp: isoTime, base: undefined },
    streams.length === 1 ? streams[0].stream : pino.multistream(streams),
  );
  return {
    log,
    problems: () => {
      const p = file?.problem();
      return [
        ...(setAside ? [setAside] : []),
        ...(p ? [{ source: 'log', message: p.message, since: new Date(p.since).toISOString() }] : []),
      ];
    },
    close: async () => {
      await stdout?.flush();
      await file?.close();
    },
  };
}

let second = NaN;
let upToSecond = '';

/** pino's isoTime field (`,"time":"2026-11-21T23:59:59.123Z"`), its part up to the second made once a second. */
export function isoTime(): string {
  const now = Date.now();
  const ms = now % 1000;
  if (now - ms !== second) {
    second = now - ms;
    upToSecond = `,"time":"${new Date(second).toISOString().slice(0, -4)}`;
  }
  return `${upToSecond}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}
