import type { Logger } from 'pino';
import { optionalNativeHelper } from '../native/helper.js';

/** Long enough for the first frames and the boot screen's first picture to be out of the way. */
export const RELEASE_AFTER_MS = 500;

/**
 * Start allocates far more than the running service keeps (configuration, fonts, pictures,
 * compiled modules: a peak of about 33 MB of malloc), and neither V8 nor glibc gives that
 * back by itself while the process idles. Once, shortly after start, the native helper
 * collects with memory reduction and trims malloc's arenas: anonymous memory, which the kernel
 * cannot reclaim on its own (clean code pages it can, so they are left to it). Without the
 * helper nothing happens. Not after reloads: the full collection holds the event loop for tens of
 * milliseconds, which a reload must not add to the frames of unchanged displays.
 */
export function releaseMemoryAfterStart(log: Pick<Logger, 'info'>, delayMs = RELEASE_AFTER_MS): NodeJS.Timeout {
  const timer = setTimeout(() => {
    const helper = optionalNativeHelper();
    if (!helper) return;
    const before = process.memoryUsage.rss(),
      t0 = performance.now();
    helper.releaseMemory();
    log.info(
      {
        rssMb: +(before / 1e6).toFixed(1),
        afterMb: +(process.memoryUsage.rss() / 1e6).toFixed(1),
        ms: Math.round(performance.now() - t0),
      },
      'memory of the start released',
    );
  }, delayMs);
  timer.unref();
  return timer;
}
