import type { AreaConfig } from '../config/types.js';
import type { Rect } from '../frame.js';

/**
 * An area's rectangles as a frame's damage: the whole area, or the rows its content paints,
 * each also as a one-element array for a frame where only this area changed. Frames keep them,
 * so each is made once, kept while it holds and never changed (the arrays are frozen).
 */
export class AreaRects {
  /** The area's rectangle on the unit. */
  readonly whole: Rect;
  private readonly wholeAlone: Rect[];
  private rows: Rect | undefined;
  private rowsAlone: Rect[] | undefined;

  constructor(area: AreaConfig) {
    this.whole = { x: area.x, y: area.y, w: area.width, h: area.height };
    this.wholeAlone = Object.freeze([this.whole]) as Rect[];
  }

  /** Rows [y, y + h) of the area (y from its top): the same object while they stay the same. */
  rowsOf(y: number, h: number): Rect {
    const r = this.rows,
      w = this.whole;
    if (r && r.y === w.y + y && r.h === h) return r;
    this.rowsAlone = undefined;
    return (this.rows = { x: w.x, y: w.y + y, w: w.w, h });
  }

  /** `r`, one of these rectangles, as a frame's whole damage: one array for every such frame. */
  alone(r: Rect): Rect[] {
    if (r === this.whole) return this.wholeAlone;
    if (r === this.rows) return (this.rowsAlone ??= Object.freeze([r]) as Rect[]);
    return [r];
  }
}
