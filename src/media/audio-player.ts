// One audio file looping through ffmpeg to a sink (src/media/audio-sink.ts) until stopped.
import { endChild, FFMPEG_QUIET, lastLine, spawnMedia, type Spawned } from './children.js';
import type { Sink } from './audio-sink.js';

const MAX_BACKOFF_MS = 60_000;
/** Playing this long without trouble resets the backoff. */
const HEALTHY_MS = 60_000;

export function playerArgs(file: string, sink: Sink): string[] {
  return [
    ...FFMPEG_QUIET,
    ...(sink.realtime ? ['-re'] : []),
    '-stream_loop',
    '-1',
    '-i',
    file,
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    ...sink.args,
    // A thin copy (1000 bytes a second) to the service on stdout: should the service die
    // without ending the player (kill -9), the next write fails and ffmpeg ends instead of
    // playing on forever. (Progress lines do not do it: ffmpeg ignores their write errors.)
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    '1000',
    '-f',
    'u8',
    'pipe:1',
  ];
}

/**
 * Keeps one ffmpeg playing `file`. When it ends (a sound card that is busy or missing, a
 * killed process) it is started again after 1 s, doubling to a minute, and the reason is
 * the player's fault until it plays again.
 */
export class AudioPlayer {
  private proc: Spawned | undefined;
  private stopped = false;
  private backoff = 1000;
  private retry: NodeJS.Timeout | undefined;
  fault: string | undefined;
  starts = 0;

  /** `after`: the player this one replaces has ended (two may not hold one sound card or file). */
  constructor(
    readonly file: string,
    readonly sink: Sink,
    private readonly onFault: (fault: string | undefined) => void,
    after: Promise<void> = Promise.resolve(),
  ) {
    void after.then(() => {
      if (!this.stopped) this.spawn();
    });
  }

  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  get running(): boolean {
    return this.proc !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const p = this.proc;
    this.proc = undefined;
    if (p) await endChild(p);
  }

  private spawn(): void {
    const proc = spawnMedia('ffmpeg', playerArgs(this.file, this.sink), true);
    proc.child.stdout!.resume();
    this.proc = proc;
    this.starts++;
    const startedAt = Date.now();
    // Still running after a second: it plays (ffmpeg fails on a device or a file at once).
    const healthy = setTimeout(() => {
      if (this.proc === proc && this.fault) {
        this.fault = undefined;
        this.onFault(undefined);
      }
    }, 1000);
    healthy.unref();
    void proc.exited.then((code) => {
      clearTimeout(healthy);
      if (this.proc !== proc || this.stopped) return;
      this.proc = undefined;
      const why = lastLine(proc.stderr()) || `ffmpeg ended with ${code === null ? 'a signal' : `code ${code}`}`;
      this.fault = `${why} (trying again in ${Math.round(this.backoff / 1000)} s)`;
      this.onFault(this.fault);
      if (Date.now() - startedAt > HEALTHY_MS) this.backoff = 1000;
      this.retry = setTimeout(() => {
        this.retry = undefined;
        if (!this.stopped) this.spawn();
      }, this.backoff);
      this.retry.unref();
      this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    });
  }
}
