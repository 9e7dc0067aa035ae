// A brightness change reaches the panel without costing a frame and without redrawing the
// layout: the output takes the new level (the Colorlight brightness packet, the backlight, or
// the pixel-scaling table of fbdev and DDP) and applies it to the next picture it sends. When
// no picture is due soon (static content: the frame loop sleeps), the picture already drawn is
// handed to the output once more; the compositor is never asked to draw.
import type { Unit } from '../render/unit.js';

/** A picture due within this carries the new level by itself. */
export const CARRIED_MS = 250;
/** What every output starts at before it is told anything. */
const DRIVER_DEFAULT = 100;

export type BrightUnit = Pick<Unit, 'runner' | 'compositor' | 'latest'>;

/** `previous`: what this unit's output was last given (undefined: nothing yet). */
export async function applyBrightness(
  unit: BrightUnit,
  percent: number,
  now: number,
  previous?: number,
): Promise<void> {
  await unit.runner.setBrightness(percent);
  if ((previous ?? DRIVER_DEFAULT) === percent) return;
  if (unit.compositor.nextChange(now) - now <= CARRIED_MS) return;
  // Not awaited: the runner queues it behind any picture in flight, and the caller goes on.
  void unit.runner.submit(unit.latest());
}
