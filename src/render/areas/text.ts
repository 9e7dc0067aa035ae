import type { CanvasRenderingContext2D } from 'canvas';
import type { AreaState } from '../../control/state.js';
import { cssRgb } from '../color.js';
import { cssFont } from '../fonts.js';

/** static, text and dynamic areas: text that fits honours align; longer text starts at the left edge. */
export function drawText(ctx: CanvasRenderingContext2D, st: AreaState, _now: number): void {
  const text = st.text;
  if (!text) return;
  const a = st.area;
  const size = st.fontSize ?? a.fontSize;
  ctx.font = cssFont(size, a.font);
  ctx.fillStyle = cssRgb(st.fontColor ?? a.fontColor);
  ctx.textBaseline = 'middle';
  const width = ctx.measureText(text).width;
  let x = a.x;
  if (width <= a.width) {
    if (a.align === 'center') x = a.x + (a.width - width) / 2;
    else if (a.align === 'right') x = a.x + a.width - width;
  }
  ctx.fillText(text, Math.round(x), a.y + a.height / 2);
}
