// Waiting in tests: for a condition or a promise, with a deadline that only bounds a failure
// (a passing run waits no longer than the condition takes), generous for a loaded 2-core
// machine. A fixed wait belongs only where the passing of time is what is tested, and says so.

/**
 * Polls `cond` every `everyMs` until it holds, failing after `ms` with what was awaited (a
 * function gives it as it stands at the deadline). An error thrown by `cond` fails at once.
 */
export async function until(
  cond: () => boolean | Promise<boolean>,
  ms = 3000,
  what: string | (() => string) = 'condition',
  everyMs = 10,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Settles as `p` does, or fails after `ms` with what was awaited. */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What redrawn() needs of a running service. */
interface Redrawing {
  runtime: { unitFor(id: string): { loop: { redraw(): Promise<{ ok: boolean; frame: number }> } } | undefined };
}

/**
 * Waits until a frame drawn after this call, so holding every change committed before it, has
 * reached the output of the display's unit (a frame is drawn for it even when nothing changed).
 */
export async function redrawn(svc: Redrawing, id: string, ms = 10_000): Promise<{ ok: boolean; frame: number }> {
  const unit = svc.runtime.unitFor(id);
  if (!unit) throw new Error(`no unit shows ${id}`);
  return within(unit.loop.redraw(), ms, `a frame of ${id} at its output`);
}
