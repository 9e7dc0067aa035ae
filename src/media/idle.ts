// A media resource (a decoder, a browser page) lives while its area is being drawn. One
// that no frame has asked for in IDLE_MS (its panel's loop stopped, a boot screen covers
// it, its unit left the configuration) is suspended; the next frame that draws it starts
// it again. This bounds what an area forgotten without a dispose() can hold.
export const IDLE_MS = 5000;
const CHECK_MS = 1000;

export interface Idler {
  /** performance.now() when a frame last asked for the resource. */
  lastUsed: number;
  suspend(): void;
}

const watched = new Set<Idler>();
let timer: NodeJS.Timeout | undefined;

function check(): void {
  const now = performance.now();
  for (const i of watched) {
    if (now - i.lastUsed > IDLE_MS) {
      watched.delete(i);
      i.suspend();
    }
  }
  if (watched.size === 0 && timer) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Marks `i` used now and watches it until unwatch(). */
export function touch(i: Idler): void {
  i.lastUsed = performance.now();
  if (watched.has(i)) return;
  watched.add(i);
  if (!timer) {
    timer = setInterval(check, CHECK_MS);
    timer.unref();
  }
}

export function unwatch(i: Idler): void {
  watched.delete(i);
}
