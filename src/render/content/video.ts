import { createCanvas, ImageData, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import path from 'node:path';
import { VideoDecoder } from '../../media/decoder.js';
import { touch, unwatch, type Idler } from '../../media/idle.js';
import { probe } from '../../media/probe.js';
import { nextContentId, type Content } from './content.js';

/** Frame period assumed until the file's own rate is known (from the probe cache, normally at once). */
const DEFAULT_PERIOD_MS = 40;

/**
 * An MP4 looping in its area at its own frame rate. The decoder starts with the first
 * frame that draws the area and ends with dispose() (a new value, a layout switch, ttl,
 * shutdown), or is suspended while no frame asks for it (src/media/idle.ts). A file that
 * will not decode falls back to the area's defaultValue, then to blank, with the fault.
 */
export class VideoContent implements Content {
  private readonly id = nextContentId();
  private decoder: VideoDecoder | undefined;
  private playing: string;
  private failure: string | undefined;
  private disposed = false;
  private canvas: Canvas | undefined;
  private putSeq = -1;
  private seenSeq = -1;
  private seenAt = 0;
  private period = DEFAULT_PERIOD_MS;
  private readonly idler: Idler = { lastUsed: 0, suspend: () => this.suspend() };

  constructor(
    private readonly file: string,
    private readonly fallback: string | undefined,
    private readonly width: number,
    private readonly height: number,
  ) {
    this.playing = file;
  }

  /** The running decoder, started (again) as the area is drawn; undefined once nothing can play. */
  private use(): VideoDecoder | undefined {
    if (this.disposed) return undefined;
    touch(this.idler);
    if (this.decoder?.failed) {
      this.failure = `${path.basename(this.playing)}: ${this.decoder.fault}`;
      this.decoder.close();
      this.decoder = undefined;
      if (this.fallback === undefined || this.playing === this.fallback) {
        this.disposed = true;
        unwatch(this.idler);
        return undefined;
      }
      this.playing = this.fallback;
    }
    if (!this.decoder) {
      this.decoder = new VideoDecoder(this.playing, this.width, this.height);
      const d = this.decoder;
      void probe(this.playing).then((r) => {
        if ('info' in r && r.info.video && this.decoder === d) this.period = 1000 / r.info.video.fps;
      });
    }
    return this.decoder;
  }

  key(now: number): string {
    const seq = this.use()?.seq ?? -1;
    if (seq !== this.seenSeq) {
      this.seenSeq = seq;
      this.seenAt = now;
    }
    return `v${this.id}:${this.playing}:${seq}`;
  }

  /** The next frame is due one period after the last one arrived; while starting, poll at the period. */
  nextChange(now: number): number {
    if (this.disposed) return Infinity;
    const d = this.decoder;
    if (!d || d.seq === 0) return now + this.period;
    return Math.max(now + 1, this.seenAt + this.period);
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number): void {
    const d = this.use();
    const frame = d?.frame();
    if (!d || !frame) return;
    this.canvas ??= createCanvas(this.width, this.height);
    if (d.seq !== this.putSeq) {
      const pixels = new Uint8ClampedArray(frame.buffer, frame.byteOffset, frame.length);
      this.canvas.getContext('2d').putImageData(new ImageData(pixels, this.width, this.height), 0, 0);
      this.putSeq = d.seq;
    }
    // drawImage (not putImageData on the frame): it honours the compositor's clip and the transparent bands.
    ctx.drawImage(this.canvas, ox, oy);
  }

  get fault(): string | undefined {
    const now = this.decoder?.fault;
    return this.failure ?? (now ? `${path.basename(this.playing)}: ${now}` : undefined);
  }

  suspend(): void {
    unwatch(this.idler);
    this.decoder?.close();
    this.decoder = undefined;
    this.putSeq = -1;
  }

  dispose(): void {
    this.disposed = true;
    this.suspend();
    this.canvas = undefined;
  }
}
