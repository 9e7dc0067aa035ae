import { createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import type { AreaConfig } from '../config/types.js';
import type { Content } from './content/content.js';
import { drawWithEffect, type EffectPhase } from './effects.js';

/** What an area shows at one moment: which content, through which effect, at what progress. */
export interface Phase {
  content: Content | undefined;
  effect?: number;
  kind?: EffectPhase;
  p: number;
  elapsed: number;
}

/** The CSS colour of an area's background, made once; undefined for none (the unit's black shows). */
export function backgroundStyle(area: AreaConfig): string | undefined {
  const bg = area.backgroundColor;
  return bg && bg.a > 0 ? `rgba(${bg.r},${bg.g},${bg.b},${bg.a})` : undefined;
}

/** The canvas an area's effects draw its content on first: made at the first effect, then kept. */
export class AreaLayer {
  private made: Canvas | undefined;
  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}
  canvas(): Canvas {
    return (this.made ??= createCanvas(this.width, this.height));
  }
}

/**
 * Paints area `a` at `now` as `ph` says: clipped to the area, its background, then the content,
 * straight or, while an effect runs, drawn on `layer` first. Throws what drawing throws; the
 * canvas's state is restored either way.
 */
export function drawArea(
  ctx: CanvasRenderingContext2D,
  a: AreaConfig,
  background: string | undefined,
  ph: Phase,
  now: number,
  layer: AreaLayer,
): void {
  ctx.save();
  try {
    ctx.beginPath();
    ctx.rect(a.x, a.y, a.width, a.height);
    ctx.clip();
    if (background) {
      ctx.fillStyle = background;
      ctx.fillRect(a.x, a.y, a.width, a.height);
    }
    if (!ph.content) return;
    if (ph.effect === undefined || ph.effect === 1 || !ph.kind) {
      ph.content.draw(ctx, a.x, a.y, now);
      return;
    }
    const canvas = layer.canvas();
    const lctx = canvas.getContext('2d');
    lctx.clearRect(0, 0, a.width, a.height);
    ph.content.draw(lctx, 0, 0, now);
    drawWithEffect(ctx, canvas, a.x, a.y, a.width, a.height, ph.effect, ph.kind, ph.p);
  } finally {
    ctx.restore();
  }
}
