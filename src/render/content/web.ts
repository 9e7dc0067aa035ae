import { loadImage, type CanvasRenderingContext2D, type Image } from 'canvas';
import { openPage, type WebPage } from '../../media/browser.js';
import { touch, unwatch, type Idler } from '../../media/idle.js';
import { nextContentId, type Content } from './content.js';

/** Load and screenshot of one page: longer is a fault. */
const LOAD_TIMEOUT_MS = 30_000;
/** Poll while a page loads, so its picture shows as soon as it is taken. */
const LOADING_POLL_MS = 100;
/** Wake at least this often while shown, so the idle watchdog knows the area is still drawn. */
const HEARTBEAT_MS = 1000;

export interface WebOptions {
  url: string;
  /** The area's defaultValue, shown when `url` fails. */
  fallback?: string;
  width: number;
  height: number;
  /** Offset of the area's top-left corner in the page (the area's `xy`). */
  xy: { x: number; y: number };
  refreshSeconds: number;
}

/** A URL as a fault or log line may show it: no query (it may carry a token), no fragment. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/**
 * A web page in its area: rendered by the shared Chromium in a viewport just large enough
 * to hold the area's rectangle at `xy`, cut out at `xy`, taken again every refreshSeconds.
 * A page that fails shows the defaultValue's page, else blank, and the fault; the requested
 * page is tried again at the next refresh.
 */
export class WebContent implements Content {
  private readonly id = nextContentId();
  private picture: Image | undefined;
  private seq = 0;
  private page: WebPage | undefined;
  private generation = 0;
  private running = false;
  private loading = false;
  private refreshAt = Infinity;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private failure: string | undefined;
  private readonly idler: Idler = { lastUsed: 0, suspend: () => this.suspend() };

  constructor(private readonly opts: WebOptions) {}

  private use(): void {
    if (this.disposed) return;
    touch(this.idler);
    if (!this.running) {
      this.running = true;
      void this.cycle(this.generation);
    }
  }

  /** Opens the page if needed, takes one picture, and arms the next refresh. */
  private async cycle(gen: number): Promise<void> {
    const o = this.opts;
    this.loading = true;
    try {
      if (!this.page) {
        const page = await openPage(o.xy.x + o.width, o.xy.y + o.height);
        if (gen !== this.generation) {
          await page.close();
          return;
        }
        this.page = page;
      }
      let shot: Buffer | undefined;
      let fault: string | undefined;
      const urls = o.fallback && o.fallback !== o.url ? [o.url, o.fallback] : [o.url];
      for (const url of urls) {
        try {
          shot = await this.take(this.page, url);
          break;
        } catch (err) {
          // Both failing: both reasons (the defaultValue's page may fail for a reason of its own).
          fault = `${fault ? `${fault}; then ` : ''}${shown(url)}: ${(err as Error).message.split('\n')[0]}`;
          if (gen !== this.generation) return;
        }
      }
      const picture = shot ? await loadImage(shot) : undefined;
      if (gen !== this.generation) return;
      // The fault and the picture change together, so nobody sees one without the other.
      this.failure = fault;
      this.picture = picture;
      this.seq++;
    } catch (err) {
      if (gen !== this.generation) return;
      this.failure = `web browser: ${(err as Error).message.split('\n')[0]}`;
      this.picture = undefined;
      this.seq++;
    } finally {
      if (gen === this.generation) {
        this.loading = false;
        this.refreshAt = Date.now() + o.refreshSeconds * 1000;
        this.timer = setTimeout(() => {
          this.timer = undefined;
          if (gen === this.generation) void this.cycle(gen);
        }, o.refreshSeconds * 1000);
        this.timer.unref();
      }
    }
  }

  private async take(page: WebPage, url: string): Promise<Buffer> {
    const { xy, width, height } = this.opts;
    let res;
    for (let attempt = 1; ; attempt++) {
      try {
        res = await page.page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
        break;
      } catch (err) {
        // After a failed load Chromium shows its error page a moment later, which cuts short
        // the next navigation (the defaultValue's page, the next refresh): let it land, go again.
        if (attempt >= 3 || !/interrupted by another navigation/.test((err as Error).message)) throw err;
        await page.page.waitForLoadState('load', { timeout: LOAD_TIMEOUT_MS }).catch(() => undefined);
      }
    }
    if (res && !res.ok()) throw new Error(`HTTP ${res.status()} ${res.statusText()}`.trim());
    return page.page.screenshot({ clip: { x: xy.x, y: xy.y, width, height }, timeout: LOAD_TIMEOUT_MS });
  }

  key(): string {
    this.use();
    return `w${this.id}:${this.seq}`;
  }

  nextChange(now: number): number {
    if (this.disposed) return Infinity;
    if (!this.running || this.loading) return now + LOADING_POLL_MS;
    return Math.min(now + HEARTBEAT_MS, now + Math.max(0, this.refreshAt - Date.now()));
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number): void {
    this.use();
    if (this.picture) ctx.drawImage(this.picture, ox, oy);
  }

  get fault(): string | undefined {
    return this.failure;
  }

  /** Closes the page (and with the last one the browser); the last picture stays until a new one is taken. */
  suspend(): void {
    unwatch(this.idler);
    this.generation++;
    this.running = false;
    this.loading = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const page = this.page;
    this.page = undefined;
    void page?.close();
  }

  dispose(): void {
    this.disposed = true;
    this.suspend();
    this.picture = undefined;
  }
}
