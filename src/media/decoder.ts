// One video file decoded by ffmpeg into raw RGBA frames of exactly the area's size, looping,
// paced by ffmpeg itself at the file's own frame rate (-re): the newest whole frame is kept.
//
// Pipe layout: frame after frame of width x height x 4 bytes (R, G, B, A; rows top to
// bottom, no padding). The picture keeps its aspect ratio; the bands left over are
// transparent (alpha 0), so the area's background shows there.
import { endChild, FFMPEG_QUIET, lastLine, spawnMedia, type Spawned } from './children.js';

/** Restarts after ffmpeg ended a file it was playing: 1 s, doubling, at most this. */
const MAX_BACKOFF_MS = 30_000;
/** Playing this long without trouble resets the backoff. */
const HEALTHY_MS = 60_000;

let running = 0;

/** Decoders running now, for /status. */
export function liveDecoders(): number {
  return running;
}

export function decoderArgs(file: string, width: number, height: number): string[] {
  const fit = [
    `scale=${width}:${height}:force_original_aspect_ratio=decrease`,
    'format=rgba',
    `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black@0`,
  ].join(',');
  return [
    ...FFMPEG_QUIET,
    '-filter_threads',
    '1',
    '-re',
    '-stream_loop',
    '-1',
    '-i',
    file,
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    '-vf',
    fit,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    'pipe:1',
  ];
}

export class VideoDecoder {
  private proc: Spawned | undefined;
  private filling: Buffer;
  private ready: Buffer;
  private filled = 0;
  private closed = false;
  private backoff = 1000;
  private startedAt = 0;
  private retry: NodeJS.Timeout | undefined;
  /** Frames completed so far (0: none yet). */
  seq = 0;
  /** Why it cannot play: set when ffmpeg ended before its first frame (no retry then). */
  fault: string | undefined;

  constructor(
    readonly file: string,
    readonly width: number,
    readonly height: number,
  ) {
    const size = width * height * 4;
    this.filling = Buffer.allocUnsafe(size);
    this.ready = Buffer.alloc(size);
    this.spawn();
  }

  /** Failed for good: the file does not decode (a fault), or ffmpeg cannot start. */
  get failed(): boolean {
    return this.fault !== undefined && this.seq === 0;
  }

  /** The newest complete frame, or undefined before the first. Valid until the next turn of the event loop. */
  frame(): Buffer | undefined {
    return this.seq > 0 ? this.ready : undefined;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.proc) void endChild(this.proc);
    this.proc = undefined;
  }

  private spawn(): void {
    const proc = spawnMedia('ffmpeg', decoderArgs(this.file, this.width, this.height), true);
    this.proc = proc;
    this.startedAt = Date.now();
    this.filled = 0;
    running++;
    const seqAtStart = this.seq;
    proc.child.stdout!.on('data', (chunk: Buffer) => this.take(chunk));
    void proc.exited.then((code) => {
      running--;
      if (this.proc !== proc || this.closed) return;
      this.proc = undefined;
      const why = lastLine(proc.stderr()) || `ffmpeg ended with ${code === null ? 'a signal' : `code ${code}`}`;
      if (this.seq === seqAtStart) {
        // Not one frame: the file does not decode. Trying again would fail the same way.
        this.fault = why;
        return;
      }
      // It played, then stopped (killed, out of memory): start again, more slowly each time.
      this.fault = `${why} (restarting)`;
      if (Date.now() - this.startedAt > HEALTHY_MS) this.backoff = 1000;
      this.retry = setTimeout(() => {
        this.retry = undefined;
        if (!this.closed) this.spawn();
      }, this.backoff);
      this.retry.unref();
      this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    });
  }

  private take(chunk: Buffer): void {
    const size = this.filling.length;
    let off = 0;
    while (off < chunk.length) {
      const n = Math.min(size - this.filled, chunk.length - off);
      chunk.copy(this.filling, this.filled, off, off + n);
      this.filled += n;
      off += n;
      if (this.filled === size) {
        [this.ready, this.filling] = [this.filling, this.ready];
        this.filled = 0;
        this.seq++;
        if (this.fault?.endsWith('(restarting)')) this.fault = undefined;
      }
    }
  }
}
