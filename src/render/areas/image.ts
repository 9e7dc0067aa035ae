import type { CanvasRenderingContext2D } from 'canvas';
import type { AreaState } from '../../control/state.js';
import { cachedImage } from '../images.js';

/** A picture larger than its area is scaled down keeping its aspect ratio; any picture is centred. */
export function drawImage(ctx: CanvasRenderingContext2D, st: AreaState, _now: number): void {
  if (!st.file) return;
  const img = cachedImage(st.file);
  if (!img) return;
  const a = st.area;
  const scale = Math.min(1, a.width / img.width, a.height / img.height);
  const w = Math.round(img.width * scale);
  const h = Math.round(img.height * scale);
  ctx.drawImage(img, a.x + Math.floor((a.width - w) / 2), a.y + Math.floor((a.height - h) / 2), w, h);
}
