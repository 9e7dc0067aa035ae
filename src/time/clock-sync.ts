// How the system's clock stands against its time source, as the time daemon says it: chrony
// (`chronyc -c tracking`) or systemd-timesyncd (`timedatectl`), whichever the unit has; Debian
// ships both. `offsetMs` is how far the unit's clock is ahead of the source (negative: behind).
//
// chronyc -c tracking, one CSV line of 14 fields (chrony's client.c):
//   0 reference id (hex)  1 reference name  2 stratum  3 ref time (s since 1970)
//   4 system time (s; positive = the system clock is SLOW of NTP time)  5 last offset (s)
//   6 RMS offset  7 frequency (ppm)  8 residual freq  9 skew  10 root delay  11 root dispersion
//   12 update interval (s)  13 leap status: Normal | Insert second | Delete second | Not synchronised
// timedatectl timesync-status: `Offset: -1.282ms` (NTP's offset, source minus local: positive =
// local slow), `Server: 192.0.2.1 (ntp.example)`; `timedatectl show -p NTPSynchronized --value`: yes|no.
import { execFile } from 'node:child_process';
import { childEnv } from '../util/child-env.js';

export interface ClockSync {
  source: 'chrony' | 'timesyncd' | 'none';
  /** null when the source could not say. */
  synchronized: boolean | null;
  offsetMs: number | null;
  server?: string;
  /** Why nothing better is known (no daemon, an answer not understood). */
  message?: string;
}

/**
 * The seam between the service and the time daemon. Contract: `read` never throws and never
 * takes longer than a few seconds; a daemon missing or not answering is `source: 'none'` with
 * a message. Tests give a reader of their own (StartOptions.clockSync).
 */
export interface ClockSyncReader {
  read(): Promise<ClockSync>;
}

/** Runs a program and gives its standard output, or an error (a missing program: code ENOENT). */
export type Run = (file: string, args: string[]) => Promise<{ out: string } | { error: string; code?: string }>;

const CHRONY_LEAPS = new Set(['Normal', 'Insert second', 'Delete second']);

export function parseChronyTracking(text: string): ClockSync {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const f = line.trim().split(',');
  if (f.length < 14)
    return {
      source: 'chrony',
      synchronized: null,
      offsetMs: null,
      message: `chronyc -c tracking said "${line.slice(0, 80)}"`,
    };
  const systemTime = Number(f[4]);
  const leap = f[13]!;
  // No reference, or chrony's own local clock (127.127.1.1 = 7F7F0101): following nothing.
  const referenced = !/^0+$/.test(f[0]!) && f[0]!.toUpperCase() !== '7F7F0101';
  return {
    source: 'chrony',
    synchronized: referenced && CHRONY_LEAPS.has(leap),
    offsetMs: Number.isFinite(systemTime) && referenced ? round(-systemTime * 1000) : null,
    ...(f[1] ? { server: f[1].slice(0, 64) } : {}),
  };
}

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  '\u00b5s': 1e-3,
  ms: 1,
  s: 1000,
  min: 60_000,
  h: 3_600_000,
};

/** systemd's time span (`+1.282ms`, `-265us`, `1min 30.5s`) in milliseconds; undefined when not one. */
export function parseTimespan(text: string): number | undefined {
  const m = /^([+-]?)\s*((?:\d+(?:\.\d+)?\s*(?:ns|us|\u00b5s|ms|s|min|h)\s*)+)$/.exec(text.trim());
  if (!m) return undefined;
  let ms = 0;
  for (const part of m[2]!.matchAll(/(\d+(?:\.\d+)?)\s*(ns|us|\u00b5s|ms|s|min|h)/g))
    ms += Number(part[1]) * UNITS[part[2]!]!;
  return m[1] === '-' ? -ms : ms;
}

export function parseTimesyncStatus(status: string, ntpSynchronized: string): ClockSync {
  const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.+)$`, 'm').exec(status)?.[1]?.trim();
  const offset = field('Offset');
  const ntp = offset === undefined ? undefined : parseTimespan(offset);
  const sync = ntpSynchronized.trim();
  const server = field('Server');
  return {
    source: 'timesyncd',
    synchronized: sync === 'yes' ? true : sync === 'no' ? false : null,
    offsetMs: ntp === undefined ? null : round(-ntp),
    ...(server ? { server: server.slice(0, 64) } : {}),
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000 + 0;

const runFile: Run = (file, args) =>
  new Promise((resolve) => {
    execFile(file, args, { timeout: 3000, env: childEnv(), maxBuffer: 64 * 1024 }, (err, out) => {
      resolve(
        err
          ? {
              error: (String(out).trim() || err.message).slice(0, 200),
              code: (err as NodeJS.ErrnoException).code as string | undefined,
            }
          : { out: String(out) },
      );
    });
  });

/** chrony when chronyc answers, else systemd-timesyncd through timedatectl, else `none`. */
export function systemClockSync(run: Run = runFile): ClockSyncReader {
  return {
    async read(): Promise<ClockSync> {
      const chrony = await run('chronyc', ['-c', 'tracking']);
      if ('out' in chrony) return parseChronyTracking(chrony.out);
      const status = await run('timedatectl', ['timesync-status']);
      if ('out' in status) {
        const sync = await run('timedatectl', ['show', '-p', 'NTPSynchronized', '--value']);
        return parseTimesyncStatus(status.out, 'out' in sync ? sync.out : '');
      }
      const why = chrony.code === 'ENOENT' ? 'no chronyc' : `chronyc: ${chrony.error}`;
      return {
        source: 'none',
        synchronized: null,
        offsetMs: null,
        message: `${why}; timedatectl: ${status.code === 'ENOENT' ? 'not installed' : status.error}`,
      };
    },
  };
}
