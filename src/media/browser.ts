// One headless Chromium for every web area of the process (Debian's package, driven by
// playwright-core; no browser is downloaded). It starts with the first page a web area
// opens and closes when the last page closes, so a service with no web area on show runs
// no browser at all. playwright-core itself is imported only then.
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's chromium; MLDS_CHROMIUM names another executable (a test's or a packager's). */
export const CHROMIUM = process.env.MLDS_CHROMIUM || '/usr/bin/chromium';

let browser: Promise<Browser> | undefined;
let pages = 0;
let launches = 0;

export interface WebPage {
  readonly page: Page;
  close(): Promise<void>;
}

async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  launches++;
  const args = ['--headless=new', '--hide-scrollbars', '--mute-audio', '--disable-gpu', '--disable-dev-shm-usage'];
  // Chromium refuses to run its sandbox as root; a unit running as its own user keeps it.
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return chromium.launch({
    executablePath: CHROMIUM,
    args,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** A launch that fails, or a browser that dies, is forgotten: the next page starts a new one. */
function start(): Promise<Browser> {
  const p: Promise<Browser> = launch().then((b) => {
    b.on('disconnected', () => {
      if (browser === p) browser = undefined;
    });
    return b;
  });
  p.catch(() => {
    if (browser === p) browser = undefined;
  });
  return p;
}

function release(): void {
  pages--;
  // Deferred a turn: a layout switch closes one web area and opens the next in the same turn.
  setImmediate(() => {
    if (pages > 0 || !browser) return;
    const b = browser;
    browser = undefined;
    void b.then((x) => x.close()).catch(() => undefined);
  });
}

/** A page of `width` x `height` CSS pixels in a context of its own (no cookies shared between areas). */
export async function openPage(width: number, height: number): Promise<WebPage> {
  pages++;
  let context: BrowserContext | undefined;
  try {
    browser ??= start();
    context = await (await browser).newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    let closed = false;
    const ctx = context;
    return {
      page,
      close: async () => {
        if (closed) return;
        closed = true;
        await ctx.close().catch(() => undefined);
        release();
      },
    };
  } catch (err) {
    await context?.close().catch(() => undefined);
    release();
    throw err;
  }
}

/** For /status: whether the browser runs, with how many pages, and how often it was started. */
export function browserStatus(): { running: boolean; pages: number; launches: number } {
  return { running: browser !== undefined, pages, launches };
}
