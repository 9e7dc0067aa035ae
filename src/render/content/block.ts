import type { CanvasRenderingContext2D } from 'canvas';
import type { Align } from '../../config/types.js';
import type { Layout, LaidPage } from '../../text/layout.js';
import { nextContentId, type Content, type TextFit } from './content.js';
import { LineRaster } from './line-raster.js';
import { pageAt } from './page-clock.js';
import { fillCopyPositions, maxCopies, scrollDistance, timeOfDistance } from './scroll.js';

export type ScrollDirection = 'left' | 'right' | 'up';

export interface BlockOptions {
  layout: Layout;
  width: number;
  height: number;
  /** Alignment of lines that carry none of their own. */
  align: Align;
  pxPerSecond: number;
  /** Pixels between the tail of a sideways scroll and its next head. */
  gapPx: number;
  /** ms epoch of distance 0 (scrolls) or of the first page. */
  origin: number;
  /** Pixels per move (scrollStep). */
  step: number;
  direction: ScrollDirection;
  graphicFile(n: number): string | undefined;
}

interface Placed {
  raster: LineRaster;
  x: number;
  y: number;
}

/**
 * Laid-out text in an area: still, pages in turn, a block moving sideways, or lines moving
 * up. Every line is rasterised once (LineRaster); a frame is blits at whole pixels.
 */
export class BlockContent implements Content {
  readonly id = nextContentId();
  private readonly pages: Placed[][];
  private readonly blockW: number;
  private readonly blockH: number;
  private readonly period: number;
  private readonly cycle: number;
  /** Lines drawn in the last frame: a line that leaves the area (another page, scrolled out) lets go of its pixels. */
  private drawn = new Set<LineRaster>();
  /** The set the next draw fills (the two swap): a frame makes no set. */
  private shown = new Set<LineRaster>();
  /** Room for the copies in view (scrolls), refilled by each draw. */
  private readonly xs: Float64Array;
  /** key()'s last answer and the step (distance or page) it is for: between changes no string is made. */
  private keyStep = NaN;
  private keyText = '';

  private rowsOnce: { y: number; h: number } | undefined;

  constructor(readonly opts: BlockOptions) {
    const { layout } = opts;
    const gap = layout.lineSpacing;
    const sideways = layout.mode === 'scroll';
    this.pages = layout.pages.map((p) => this.place(p, gap, sideways));
    const first = layout.pages[0];
    this.blockW = Math.max(1, ...first.lines.map((l) => Math.ceil(l.width)));
    this.blockH = Math.max(1, first.height);
    const lineH = first.lines[0] ? first.lines[0].ascent + first.lines[0].descent : 1;
    this.period = layout.mode === 'scroll-up' ? this.blockH + lineH : Math.max(1, Math.round(this.blockW + opts.gapPx));
    this.cycle = layout.pages.reduce((t, p) => t + p.onMs + p.offMs, 0);
    const up = layout.mode === 'scroll-up';
    this.xs = new Float64Array(
      this.scrolls ? maxCopies(up ? opts.height : opts.width, up ? this.blockH : this.blockW, this.period) : 0,
    );
  }

  /** Lines of a page at their places in the area (a sideways block: in the block, aligned to its start). */
  private place(page: LaidPage, gap: number, sideways: boolean): Placed[] {
    const { width, height } = this.opts;
    const top =
      page.valign === 'top'
        ? 0
        : page.valign === 'bottom'
          ? height - page.height
          : Math.round((height - page.height) / 2);
    let y = this.opts.layout.mode === 'scroll-up' ? 0 : top;
    const blockW = Math.max(0, ...page.lines.map((l) => Math.ceil(l.width)));
    return page.lines.map((l) => {
      const raster = new LineRaster(l, this.opts.graphicFile);
      const room = (sideways ? blockW : width) - raster.width;
      const a = l.align ?? this.opts.align;
      const x = a === 'center' ? Math.round(room / 2) : a === 'right' ? room : 0;
      const placed = { raster, x, y };
      y += raster.height + gap;
      return placed;
    });
  }

  /** Rasterised tiles held by all lines (memory stays with what is on show). */
  get heldTiles(): number {
    return this.pages.flat().reduce((n, p) => n + p.raster.tileCount, 0);
  }

  /** Width of the widest line of the first page, whole px. */
  get blockWidth(): number {
    return this.blockW;
  }

  get textFit(): TextFit {
    const { fit, size, missing, clippedPx } = this.opts.layout;
    return { fit, size, ...(missing.length ? { missing } : {}), ...(clippedPx ? { clippedPx } : {}) };
  }

  get repeats(): boolean {
    const { mode, pages } = this.opts.layout;
    return mode === 'pages' && this.cycle > 0 && (pages.length > 1 || pages[0].offMs > 0);
  }

  get scrolls(): boolean {
    return this.opts.layout.mode === 'scroll' || this.opts.layout.mode === 'scroll-up';
  }

  get origin(): number {
    return this.opts.origin;
  }

  private distance(now: number): number {
    return scrollDistance(this.opts.pxPerSecond, this.opts.origin, now, this.opts.step);
  }

  /** Which page shows at `now` (-1: the blank off time after page i is shown as -(i + 2)). */
  private pageAt(now: number): { index: number; until: number } {
    if (this.opts.layout.mode !== 'pages' || this.cycle <= 0) return { index: 0, until: Infinity };
    return pageAt(now, this.opts.origin, this.opts.layout.pages);
  }

  key(now: number): string {
    const step = this.scrolls ? this.distance(now) : this.pageAt(now).index;
    if (step !== this.keyStep) {
      this.keyStep = step;
      this.keyText = `b${this.id}:${step}`;
    }
    return this.keyText;
  }

  nextChange(now: number): number {
    if (this.scrolls) {
      if (this.opts.pxPerSecond <= 0) return Infinity;
      return Math.max(
        now + 1,
        timeOfDistance(this.opts.pxPerSecond, this.opts.origin, this.distance(now) + this.opts.step),
      );
    }
    return this.pageAt(now).until;
  }

  /** Asked every frame (area.changedRect): the lines never move between rows, so worked out once. */
  rows(): { y: number; h: number } {
    return (this.rowsOnce ??= this.rowsOfLines());
  }

  private rowsOfLines(): { y: number; h: number } {
    if (this.opts.layout.mode === 'scroll-up') return { y: 0, h: this.opts.height };
    const ys = this.pages.flat();
    if (ys.length === 0) return { y: 0, h: 0 };
    const top = Math.max(0, Math.min(...ys.map((p) => p.y)));
    const bottom = Math.min(this.opts.height, Math.max(...ys.map((p) => p.y + p.raster.height)));
    return { y: top, h: Math.max(0, bottom - top) };
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void {
    const shown = this.shown;
    shown.clear();
    const { width, height, layout, direction } = this.opts;
    const lines = this.pages[0];
    if (layout.mode === 'scroll') {
      const n = fillCopyPositions(this.xs, width, this.blockW, this.period, this.distance(now));
      for (let i = 0; i < n; i++) {
        const bx = direction === 'right' ? width - this.blockW - this.xs[i] : this.xs[i];
        for (let j = 0; j < lines.length; j++) this.put(ctx, lines[j], ox + bx + lines[j].x, oy + lines[j].y, ox);
      }
    } else if (layout.mode === 'scroll-up') {
      const n = fillCopyPositions(this.xs, height, this.blockH, this.period, this.distance(now));
      for (let i = 0; i < n; i++) {
        const y = this.xs[i];
        for (const p of lines)
          if (y + p.y < height && y + p.y + p.raster.height > 0) this.put(ctx, p, ox + p.x, oy + y + p.y, ox);
      }
    } else {
      for (const p of this.pages[this.pageAt(now).index] ?? []) this.put(ctx, p, ox + p.x, oy + p.y, ox);
    }
    for (const r of this.drawn) if (!shown.has(r)) r.release();
    this.shown = this.drawn;
    this.drawn = shown;
  }

  private put(ctx: CanvasRenderingContext2D, p: Placed, x: number, y: number, ox: number): void {
    p.raster.draw(ctx, x, y, ox, ox + this.opts.width);
    this.shown.add(p.raster);
  }
}
