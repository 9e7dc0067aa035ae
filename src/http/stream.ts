import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { Canvas } from 'canvas';
import { damageSince, mergeDamage, type Frame } from '../frame.js';
import { encodeJpegAsync } from '../render/encode.js';
import { MldsError } from '../errors.js';
import { DEFAULT_LIMITS } from '../config/field-settings.js';

/** Where a live view takes its pictures: one display's part of its unit's frames. */
export interface LiveSource {
  /** The display's size: the top-left width x height of each unit frame. */
  width: number;
  height: number;
  latest(): Frame | undefined;
  /** Called with every new frame; returns the unsubscribe function. */
  subscribe(fn: (frame: Frame) => void): () => void;
}

/** What the service offers about frames (ServiceApi has this shape). */
export interface FrameFeed {
  frame(displayId: string): Frame | undefined;
  onFrame(displayId: string, fn: (frame: Frame) => void): () => void;
}

/** The live source of one display, from the service's frame feed. */
export function liveSource(feed: FrameFeed, display: { id: string; width: number; height: number }): LiveSource {
  return {
    width: display.width,
    height: display.height,
    latest: () => feed.frame(display.id),
    subscribe: (fn) => feed.onFrame(display.id, fn),
  };
}

export interface LiveViewOptions {
  /** Ceiling of pictures per second sent to viewers (default 25). */
  maxFps?: number;
  /** JPEG quality 0..1 (default 0.8). */
  quality?: number;
  /** A still screen re-sends its last picture this often so proxies keep the stream open (default 10 s). */
  keepAliveMs?: number;
  /** A viewer that has taken nothing for this long while a picture waited is closed (limits.idleTimeoutMs). */
  idleTimeoutMs?: number;
  /** Live views open at once, over every display (limits.maxStreams); more are refused 503. */
  maxStreams?: number;
}

const BOUNDARY = 'mldsframe';
/** Part headers come before the picture is known, so they carry no Content-Length. */
const PART_HEAD = 'Content-Type: image/jpeg\r\n\r\n';

interface Viewer {
  out: PassThrough;
  /** Its connection holds a picture it has not taken; since when (performance.now()). */
  busy: boolean;
  busySince: number;
  /** Closes the connection (a viewer that stopped reading). */
  drop(): void;
}

/**
 * The viewers of one display. Each new frame is encoded once, whatever the number of
 * viewers, at most maxFps times a second and never two encodes at a time (a frame that
 * arrives meanwhile waits, replaced by any newer one). A viewer whose connection has not
 * taken the previous picture yet skips pictures instead of queueing them, so a slow phone
 * neither delays the other viewers nor buffers memory, and nothing here waits for the
 * frame loop or makes it wait.
 */
class Broadcast {
  readonly viewers = new Set<Viewer>();
  encodes = 0;
  private readonly unsubscribe: () => void;
  private readonly minInterval: number;
  private pending: Frame | undefined;
  private encoding = false;
  private lastStart = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private idleCheck: NodeJS.Timeout | undefined;
  private lastJpeg: { seq: number; jpeg: Buffer } | undefined;
  private scratch: Canvas | undefined;
  /** The frame on `scratch` (undefined: put the next one whole); `pending` carries the damage since it. */
  private scratchSeq: number | undefined;
  private closed = false;

  constructor(
    private readonly source: LiveSource,
    private readonly opts: Required<LiveViewOptions>,
    private readonly onEmpty: () => void,
  ) {
    this.minInterval = 1000 / opts.maxFps;
    this.unsubscribe = source.subscribe((f) => this.offer(f));
    this.keepAlive = setInterval(() => {
      if (this.lastJpeg) this.send(this.lastJpeg.jpeg, true);
    }, opts.keepAliveMs);
    this.keepAlive.unref();
    // A client that stops reading fills the kernel's buffers, then ours, then holds its
    // connection: it is dropped once no picture has left for idleTimeoutMs.
    this.idleCheck = setInterval(() => this.dropIdle(), Math.max(100, opts.idleTimeoutMs / 4));
    this.idleCheck.unref();
  }

  private dropIdle(): void {
    const now = performance.now();
    for (const v of this.viewers) if (v.busy && now - v.busySince >= this.opts.idleTimeoutMs) v.drop();
  }

  add(v: Viewer): void {
    this.viewers.add(v);
    const latest = this.source.latest();
    if (this.lastJpeg && (!latest || latest.seq === this.lastJpeg.seq)) this.write(v, this.lastJpeg.jpeg);
    else if (latest) this.offer(latest, true);
  }

  remove(v: Viewer): void {
    this.viewers.delete(v);
    if (this.viewers.size === 0) this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    if (this.keepAlive) clearInterval(this.keepAlive);
    if (this.idleCheck) clearInterval(this.idleCheck);
    this.timer = this.keepAlive = this.idleCheck = undefined;
    for (const v of this.viewers) v.out.end();
    this.viewers.clear();
    this.onEmpty();
  }

  private offer(frame: Frame, now = false): void {
    // A frame replacing one not yet encoded carries that one's damage too (as the frame loop does).
    this.pending = this.pending ? mergeDamage(this.pending, frame) : frame;
    if (this.encoding || this.timer) return;
    const wait = now ? 0 : this.lastStart + this.minInterval - performance.now();
    if (wait <= 0) void this.encode();
    else
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.encode();
      }, wait);
  }

  private async encode(): Promise<void> {
    const frame = this.pending;
    if (!frame || this.closed) return;
    this.pending = undefined;
    this.encoding = true;
    this.lastStart = performance.now();
    try {
      const rects = damageSince(frame, this.scratchSeq);
      this.scratchSeq = undefined; // until the canvas holds this frame
      const { jpeg, canvas } = await encodeJpegAsync(
        frame,
        this.source.width,
        this.source.height,
        this.opts.quality,
        this.scratch,
        rects,
      );
      this.scratch = canvas;
      this.scratchSeq = frame.seq;
      this.encodes++;
      this.lastJpeg = { seq: frame.seq, jpeg };
      this.send(jpeg, false);
    } catch {
      // A picture that fails to encode is skipped; the next frame tries again, whole.
    } finally {
      this.encoding = false;
    }
    if (this.pending) this.offer(this.pending);
  }

  private send(jpeg: Buffer, onlyIdle: boolean): void {
    for (const v of this.viewers) if (!onlyIdle || !v.busy) this.write(v, jpeg);
  }

  private write(v: Viewer, jpeg: Buffer): void {
    if (v.busy) return;
    v.out.write(jpeg);
    // The closing boundary and the next part's headers go out with the part: Chromium shows
    // a part only once the next part's headers arrive, so a still screen would otherwise
    // show its previous picture until the keep-alive.
    if (!v.out.write(`\r\n--${BOUNDARY}\r\n${PART_HEAD}`)) {
      v.busy = true;
      v.busySince = performance.now();
      v.out.once('drain', () => {
        v.busy = false;
      });
    }
  }
}

/**
 * Live MJPEG views (multipart/x-mixed-replace) of displays, for GET /screenshot?stream=1.
 * `key` identifies the source (the display id); one encoder per key serves all its viewers.
 */
export class LiveViews {
  private readonly broadcasts = new Map<string, Broadcast>();
  private readonly opts: Required<LiveViewOptions>;
  /** Viewers open over every display. */
  private open = 0;

  constructor(options: LiveViewOptions = {}) {
    this.opts = {
      maxFps: options.maxFps ?? 25,
      quality: options.quality ?? 0.8,
      keepAliveMs: options.keepAliveMs ?? 10_000,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_LIMITS.idleTimeoutMs,
      maxStreams: options.maxStreams ?? DEFAULT_LIMITS.maxStreams,
    };
  }

  /** Answers the request with an endless stream of this display's pictures. */
  serve(ctx: Context, key: string, source: LiveSource): void {
    // HEAD answers as GET would, without taking a place.
    if (this.open >= this.opts.maxStreams) {
      ctx.set('Connection', 'close');
      throw new MldsError(
        'MLDS_TOO_MANY_STREAMS',
        `${this.open} live views are open, as many as limits.maxStreams allows; the rest of the connections are ` +
          `kept for control messages`,
      );
    }
    ctx.status = 200;
    ctx.type = `multipart/x-mixed-replace; boundary=${BOUNDARY}`;
    ctx.set('Cache-Control', 'no-store, no-cache, must-revalidate');
    ctx.set('Pragma', 'no-cache');
    ctx.set('X-Accel-Buffering', 'no');
    if (ctx.method === 'HEAD') return;
    const socket = ctx.req.socket;
    socket.setNoDelay(true);
    // Not the server's idle timeout: a still screen sends only every keepAliveMs. A viewer
    // that stops reading is dropped by Broadcast.dropIdle instead.
    socket.setTimeout(0);
    const out = new PassThrough({ highWaterMark: 64 * 1024 });
    out.write(`--${BOUNDARY}\r\n${PART_HEAD}`);
    ctx.body = out;
    let b = this.broadcasts.get(key);
    if (!b) {
      b = new Broadcast(source, this.opts, () => this.broadcasts.delete(key));
      this.broadcasts.set(key, b);
    }
    const viewer: Viewer = { out, busy: false, busySince: 0, drop: () => socket.destroy() };
    const broadcast = b;
    this.open++;
    let left = false;
    const gone = () => {
      if (left) return;
      left = true;
      this.open--;
      broadcast.remove(viewer);
    };
    ctx.req.once('close', gone);
    ctx.res.once('close', gone);
    broadcast.add(viewer);
  }

  /** Viewers and encodes per key, for /status and tests. */
  stats(): Record<string, { viewers: number; encodes: number; maxBufferedBytes: number }> {
    const out: Record<string, { viewers: number; encodes: number; maxBufferedBytes: number }> = {};
    for (const [k, b] of this.broadcasts) {
      const buffered = [...b.viewers].map((v) => v.out.writableLength);
      out[k] = { viewers: b.viewers.size, encodes: b.encodes, maxBufferedBytes: Math.max(0, ...buffered) };
    }
    return out;
  }

  /** Ends the streams of these displays (they left the configuration, or their unit was replaced). */
  close(keys: string[]): void {
    for (const k of keys) this.broadcasts.get(k)?.close();
  }

  /** Ends every stream (shutdown): browsers reload the picture. */
  closeAll(): void {
    for (const b of [...this.broadcasts.values()]) b.close();
  }
}
