import type { CanvasRenderingContext2D } from 'canvas';
import type { Overlay } from '../render/compositor.js';
import { fittedFrame, type Picture } from '../render/images.js';

/**
 * The `startScreen` logo, centred on the whole unit and scaled down to fit it (never up, as
 * an image area draws). An animated GIF shows its first frame: a logo is a still.
 */
export class LogoScreen implements Overlay {
  constructor(private readonly picture: Picture) {}

  draw(ctx: CanvasRenderingContext2D, width: number, height: number): void {
    const img = fittedFrame(this.picture, 0, width, height);
    ctx.drawImage(img, Math.floor((width - img.width) / 2), Math.floor((height - img.height) / 2));
  }

  nextChange(): number {
    return Infinity;
  }
}
