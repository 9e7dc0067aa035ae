// What an operator watches on a unit: the SoC temperature, whether the
// clock is synchronized, free space of the state and log folders, load and memory. Read
// when /status asks, at most every HEALTH_CACHE_MS; the clock state comes from a child
// process (timedatectl, else the kernel's adjtimex through python3) at most once a minute.
import { execFile } from 'node:child_process';
import { childEnv } from '../util/child-env.js';
import { readdirSync, readFileSync, statfsSync } from 'node:fs';
import { freemem, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import {
  clockHeld,
  clockOffsetMs,
  clockSynchronized,
  setClockOffset,
  setClockSynchronized,
} from '../time/clock-guard.js';
import { systemClockSync, type ClockSyncReader } from '../time/clock-sync.js';

export interface HealthReport {
  /** °C of the SoC (the first thermal zone of a CPU/SoC type, else the first zone); null without one. */
  temperatureC: number | null;
  temperatureZone?: string;
  /**
   * `offsetMs`: how far the clock is ahead of its time source (chrony's or timesyncd's report); `maxSkewMs` from
   * maxClockSkew.
   */
  clock: {
    synchronized: boolean | null;
    source: string;
    held: string | null;
    offsetMs: number | null;
    maxSkewMs: number;
    server?: string;
  };
  disks: Array<{ folder: string; path: string; freeBytes: number; totalBytes: number; freePercent: number }>;
  load: [number, number, number];
  memory: {
    totalBytes: number;
    availableBytes: number;
    serviceRssBytes: number;
    /**
     * The service's anonymous memory (smaps_rollup): what the kernel cannot take back without swap. Null where it
     * cannot be read.
     */
    serviceAnonymousBytes: number | null;
  };
}

export const HEALTH_CACHE_MS = 2000;

/**
 * The process's anonymous memory from /proc/self/smaps_rollup: heap, stacks and the pages of
 * files it wrote to (a private mapping's written page is anonymous). Clean file pages (code,
 * fonts) count in RSS but the kernel drops them under pressure and reads them again; these it
 * cannot. Null without smaps_rollup (not Linux, or a kernel before 4.14).
 */
export function anonymousBytes(file = '/proc/self/smaps_rollup'): number | null {
  try {
    const m = /^Anonymous:\s+(\d+) kB/m.exec(readFileSync(file, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
const CLOCK_EVERY_MS = 60_000;
const THERMAL = '/sys/class/thermal';
const SOC_ZONE = /cpu|soc|x86_pkg|arm|core/i;
// adjtimex(2) answers TIME_ERROR (5) while the kernel's clock is unsynchronized.
const ADJTIMEX =
  'import ctypes,sys\nclass T(ctypes.Structure): _fields_=[("modes",ctypes.c_int)]+[("x%d"%i,ctypes.c_long) for ' +
  'i in range(40)]\nsys.stdout.write(str(ctypes.CDLL(None).adjtimex(ctypes.byref(T()))))';

export class HealthMonitor {
  private cached: HealthReport | undefined;
  private cachedAt = 0;
  private clockAskedAt = -Infinity;
  private clockSource = 'not asked yet';
  private clockServer: string | undefined;

  constructor(
    private readonly folders: Record<string, string | undefined>,
    private readonly thermalDir = THERMAL,
    private readonly clockSync: ClockSyncReader = systemClockSync(),
    /** The configuration's maxClockSkew, in seconds. */
    private readonly maxSkewSeconds: () => number = () => 5,
  ) {}

  report(now = Date.now()): HealthReport {
    if (this.cached && now - this.cachedAt < HEALTH_CACHE_MS) return this.cached;
    if (now - this.clockAskedAt >= CLOCK_EVERY_MS) {
      this.clockAskedAt = now;
      // After this turn: forking the child blocks the process for milliseconds (more the
      // larger it is), and the answer comes later anyway; the asking request need not wait.
      setImmediate(() => this.askClock());
    }
    const t = this.temperature();
    const mem = this.memory();
    this.cached = {
      temperatureC: t?.c ?? null,
      ...(t ? { temperatureZone: t.zone } : {}),
      clock: {
        synchronized: clockSynchronized() ?? null,
        source: this.clockSource,
        held: clockHeld(now) ?? null,
        offsetMs: clockOffsetMs() ?? null,
        maxSkewMs: this.maxSkewSeconds() * 1000,
        ...(this.clockServer ? { server: this.clockServer } : {}),
      },
      disks: Object.entries(this.folders)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .flatMap(([folder, p]) => this.disk(folder, p)),
      load: loadavg().map((l) => Math.round(l * 100) / 100) as [number, number, number],
      memory: { ...mem, serviceRssBytes: process.memoryUsage.rss(), serviceAnonymousBytes: anonymousBytes() },
    };
    this.cachedAt = now;
    return this.cached;
  }

  /**
   * The held clock, and a clock further from its source than maxClockSkew, for /status and /info's problem list while
   * it lasts.
   */
  problems(now = Date.now()): Array<{ source: string; message: string; since: string }> {
    const { held, offsetMs, maxSkewMs } = this.report(now).clock;
    const since = new Date(this.cachedAt).toISOString();
    const out = held ? [{ source: 'clock', message: held, since }] : [];
    if (offsetMs !== null && Math.abs(offsetMs) > maxSkewMs) {
      const s = (ms: number) => `${Math.round(Math.abs(ms) / 100) / 10} s`;
      const where = `${s(offsetMs)} ${offsetMs > 0 ? 'ahead of' : 'behind'} its time source (${this.clockSource})`;
      const message =
        `the clock is ${where}, more than maxClockSkew (${s(maxSkewMs)}): commands with \`ts\` may ` +
        `be refused as stale`;
      out.push({ source: 'clock', message, since });
    }
    return out;
  }

  private temperature(): { c: number; zone: string } | undefined {
    let zones: string[];
    try {
      zones = readdirSync(this.thermalDir)
        .filter((z) => z.startsWith('thermal_zone'))
        .sort();
    } catch {
      return undefined;
    }
    const read = (z: string) => {
      try {
        const type = readFileSync(path.join(this.thermalDir, z, 'type'), 'utf8').trim();
        const milli = Number(readFileSync(path.join(this.thermalDir, z, 'temp'), 'utf8').trim());
        return Number.isFinite(milli) ? { c: Math.round(milli / 100) / 10, zone: `${z} (${type})`, type } : undefined;
      } catch {
        return undefined;
      }
    };
    const all = zones.map(read).filter((z) => z !== undefined);
    const best = all.find((z) => SOC_ZONE.test(z.type)) ?? all[0];
    return best ? { c: best.c, zone: best.zone } : undefined;
  }

  private disk(folder: string, p: string): HealthReport['disks'] {
    try {
      const s = statfsSync(p);
      const free = s.bavail * s.bsize,
        total = s.blocks * s.bsize;
      return [
        {
          folder,
          path: p,
          freeBytes: free,
          totalBytes: total,
          freePercent: total ? Math.round((free / total) * 1000) / 10 : 0,
        },
      ];
    } catch {
      return [];
    }
  }

  private memory(): { totalBytes: number; availableBytes: number } {
    try {
      const m = /MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'));
      if (m) return { totalBytes: totalmem(), availableBytes: Number(m[1]) * 1024 };
    } catch {
      /* not Linux */
    }
    return { totalBytes: totalmem(), availableBytes: freemem() };
  }

  /**
   * The time daemon first (chrony, timesyncd: with the offset), else timedatectl, else adjtimex; the answer lands in
   * the clock guard.
   */
  private askClock(): void {
    void this.clockSync.read().then(
      (r) => {
        if (r.source === 'none') {
          this.askKernel();
          return;
        }
        this.clockSource = r.source;
        this.clockServer = r.server;
        setClockSynchronized(r.synchronized ?? undefined);
        setClockOffset(r.offsetMs ?? undefined);
      },
      () => this.askKernel(),
    );
  }

  private askKernel(): void {
    setClockOffset(undefined);
    this.clockServer = undefined;
    execFile(
      'timedatectl',
      ['show', '-p', 'NTPSynchronized', '--value'],
      { timeout: 3000, env: childEnv() },
      (err, out) => {
        const v = String(out).trim();
        if (!err && (v === 'yes' || v === 'no')) {
          this.clockSource = 'timedatectl';
          setClockSynchronized(v === 'yes');
          return;
        }
        execFile('python3', ['-c', ADJTIMEX], { timeout: 3000, env: childEnv() }, (err2, out2) => {
          const state = Number(String(out2).trim());
          if (err2 || !Number.isInteger(state) || state < 0) {
            this.clockSource = 'unknown (no timedatectl, no adjtimex)';
            setClockSynchronized(undefined);
            return;
          }
          this.clockSource = 'adjtimex';
          setClockSynchronized(state !== 5);
        });
      },
    );
  }
}
