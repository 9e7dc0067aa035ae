import { createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import type { DisplayConfig, UnitConfig } from '../config/types.js';
import type { DisplayState } from '../control/state.js';
import type { Frame } from '../output/types.js';
import { drawers } from './areas/index.js';
import { cssRgba } from './color.js';

/**
 * Draws the virtual displays of one physical unit, in config order (later ids on top),
 * into one canvas and hands out finished RGBA frames.
 */
export class Compositor {
  private readonly canvas: Canvas;
  private readonly ctx: CanvasRenderingContext2D;
  private seq = 0;
  private last: Frame;

  constructor(
    readonly unit: UnitConfig,
    private readonly displays: DisplayConfig[],
    private readonly stateOf: (id: string) => DisplayState,
  ) {
    this.canvas = createCanvas(unit.width, unit.height);
    this.ctx = this.canvas.getContext('2d');
    this.last = { width: unit.width, height: unit.height, data: new Uint8Array(unit.width * unit.height * 4), seq: 0 };
  }

  render(now: number = Date.now()): Frame {
    const ctx = this.ctx;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, this.unit.width, this.unit.height);
    for (const d of this.displays) this.drawDisplay(d, now);
    const img = ctx.getImageData(0, 0, this.unit.width, this.unit.height);
    this.last = {
      width: this.unit.width,
      height: this.unit.height,
      data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength),
      seq: ++this.seq,
    };
    return this.last;
  }

  latest(): Frame {
    return this.last;
  }

  private drawDisplay(d: DisplayConfig, now: number): void {
    const st = this.stateOf(d.id);
    if (!st.layout) return;
    const layout = d.layouts.get(st.layout);
    if (!layout) return;
    const ctx = this.ctx;
    for (const area of layout.areas) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(area.x, area.y, area.width, area.height);
      ctx.clip();
      if (area.backgroundColor) {
        ctx.fillStyle = cssRgba(area.backgroundColor);
        ctx.fillRect(area.x, area.y, area.width, area.height);
      }
      const as = st.areas.get(area.id);
      if (as && as.source !== 'none') drawers[area.type](ctx, as, now);
      ctx.restore();
    }
  }
}
