import type { Logger } from 'pino';
import { optionalNativeHelper } from '../native/helper.js';

/** Long enough for the first frames and the boot screen's first picture to be out of the way. */
export const RELEASE_AFTER_MS = 500;

/**
 * Start allocates far more than the running service keeps (configuration, fonts, pictures,
 * compiled modules: a peak of about 33 MB of malloc), and neither V8 nor glibc gives that
 * back by itself while the process idles; and most of its resident pages are code that only
 * the start ran. Once, shortly after start, the native helper collects with memory reduction,
 * trims malloc's arenas and drops the clean pages of node's and the libraries' code (they stay
 * in the page cache; what the running service uses comes back on use). Without the helper
 * nothing happens. Not after reloads: the full collection holds the event loop for tens of
 * milliseconds, which a reload must not add to the frames of unchanged displays.
 */
export function releaseMemoryAfterStart(log: Pick<Logger, 'info'>, delayMs = RELEASE_AFTER_MS): NodeJS.Timeout {
  const timer = setTimeout(() => {
    const release = optionalNativeHelper()?.releaseMemory;
    if (!release) return;
    const before = process.memoryUsage.rss(), t0 = performance.now();
    const code = release();
    log.info({ rssMb: +(before / 1e6).toFixed(1), afterMb: +(process.memoryUsage.rss() / 1e6).toFixed(1), codeMb: +((code ?? 0) / 1e6).toFixed(1), ms: Math.round(performance.now() - t0) }, 'memory of the start released');
  }, delayMs);
  timer.unref();
  return timer;
}
