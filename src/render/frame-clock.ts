// What wakes the frame loop. The service's units use the native helper's timerfd: re-armed in
// place, to the microsecond, with nothing made on the JS heap per frame (native/src/timer.cc says
// what a setTimeout per frame costs). setTimeout stays for a helper not built or built before
// the timer existed, and for tests that drive the loop on mocked timers.
import { optionalNativeHelper } from '../native/helper.js';

/** One pending wake-up of one callback at a time. */
export interface FrameClock {
  /**
   * Calls the callback once, `us` microseconds from now, replacing an earlier arm. Whole
   * microseconds, so a frame's delay crosses into the native helper as a small integer: a
   * fractional number of milliseconds was boxed on the heap at that call, every frame.
   */
  arm(us: number): void;
  /** Nothing fires until the next arm(). */
  disarm(): void;
  /** Lets go of what it holds; arm() may not be called again. */
  close(): void;
}

/** Makes the clock of one frame loop. */
export type ClockFactory = (callback: () => void) => FrameClock;

/** node's timers: a Timeout per arm. */
export const timeoutClock: ClockFactory = (callback) => {
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    callback();
  };
  const disarm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return {
    arm(us) {
      disarm();
      timer = setTimeout(fire, Math.max(0, us / 1000));
    },
    disarm,
    close: disarm,
  };
};

/** The native helper's timerfd; undefined when the helper is not there. */
export function nativeClock(): ClockFactory | undefined {
  const Timer = optionalNativeHelper()?.FrameTimer;
  if (!Timer) return undefined;
  return (callback) => new Timer(callback);
}

/** The clock the service's frame loops run on: the native one where it can be had. */
export function frameClock(): ClockFactory {
  return nativeClock() ?? timeoutClock;
}
