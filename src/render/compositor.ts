import type { CanvasRenderingContext2D } from 'canvas';
import type { DisplayConfig, UnitConfig } from '../config/types.js';
import type { DisplayState } from '../control/state.js';
import { intersects, type Frame, type Rect, visibleOnly } from '../frame.js';
import { AreaRenderer, type RenderOptions } from './area.js';
import type { ContentReport, TextFit } from './content/content.js';
import { copyKept, keepPictures, keptBytes } from './kept-pictures.js';
import { PACKAGE_FONT_DIR, useFontDirs } from '../text/fonts.js';
import { readBack } from './read-back.js';
import { ScratchCanvases } from './scratch.js';

export interface CompositorOptions extends Partial<RenderOptions> {
  /** Folders whose fonts form the glyph fallback chain (service fonts/ first). */
  fontDirs?: string[];
}

/**
 * A picture of the whole unit shown instead of its displays (the boot screens, /identify).
 * The displays' states go on changing underneath and are drawn afresh when it is removed.
 */
export interface Overlay {
  /** Draws the whole picture for time `now` on a canvas already filled black. */
  draw(ctx: CanvasRenderingContext2D, width: number, height: number, now: number): void;
  /** ms epoch of the next change of its picture (a scrolling address); Infinity when still. */
  nextChange(now: number): number;
}

interface DisplayMemory {
  layout: string | undefined;
  layoutSetAt: number;
  renderers: AreaRenderer[];
}

/**
 * Draws the virtual displays of one physical unit, in config order (later ids on top),
 * into one RGBA picture buffer and hands out frames of it. Only areas whose picture changed
 * (see Content.key) are repainted, together with whatever overlaps them, and only those
 * rectangles are read back from cairo; an unchanged screen yields the previous frame.
 */
/** The options as drawing takes them; the font folders are the process's own, set here. */
function renderOptions(options: CompositorOptions): RenderOptions {
  useFontDirs(options.fontDirs ?? [PACKAGE_FONT_DIR]);
  return {
    effectDurationMs: options.effectDurationMs ?? 500,
    timezone: options.timezone,
    fps: options.fps,
    boards: options.boards,
  };
}

export class Compositor {
  private readonly scratch: ScratchCanvases;
  private readonly memory = new Map<string, DisplayMemory>();
  private opts: RenderOptions;
  private readonly listeners = new Set<(frame: Frame) => void>();
  private seq = 0;
  private last: Frame;
  /** The unit's picture, updated in place: frames are views of it (see Frame). */
  private readonly buffer: Uint8Array;
  /**
   * Nothing was painted yet: the picture is still all zero, which outputs and encoders show as
   * black. A unit with nothing to draw paints nothing then, so its picture's pages are never
   * touched and take no memory (8 MB at 1080p) until something is shown.
   */
  private untouched = true;
  private everythingDirty = true;
  private overlay: Overlay | undefined;
  private overlayNext = -Infinity;
  /** The strip paint() is drawing, overwritten for each (never handed out): a frame makes no rectangle for it. */
  private readonly strip: Rect = { x: 0, y: 0, w: 0, h: 0 };
  /** The whole unit, { 0, 0, width, height }. */
  private readonly bounds: Rect;
  /** allRenderers(), until the displays' areas change. */
  private renderers: AreaRenderer[] | undefined;

  constructor(
    readonly unit: UnitConfig,
    private displays: DisplayConfig[],
    private readonly stateOf: (id: string) => DisplayState,
    options: CompositorOptions = {},
  ) {
    this.opts = renderOptions(options);
    this.scratch = new ScratchCanvases(unit.width, unit.height);
    this.buffer = new Uint8Array(unit.width * unit.height * 4);
    this.bounds = Object.freeze({ x: 0, y: 0, w: unit.width, h: unit.height });
    this.last = { width: unit.width, height: unit.height, data: this.buffer, seq: 0 };
  }

  /** Brings the frame up to date for time `now` (ms epoch); returns the previous frame object when nothing changed. */
  render(now: number = Date.now()): Frame {
    if (this.overlay) return this.renderOverlay(this.overlay, now);
    const dirty = this.collectDirty(now);
    if (dirty.length === 0) return this.last;
    const all = this.allRenderers();
    // Black over a picture still all zero (no display has an area yet) would change no pixel on any panel.
    if (this.untouched && all.length === 0) return this.last;
    for (let i = 0; i < dirty.length; i++) {
      if (copyKept(this.buffer, this.unit, dirty[i], all, now)) continue;
      this.paint(dirty[i], undefined, now);
    }
    for (let i = 0; i < all.length; i++) all[i].markDrawn(now);
    keepPictures(this.buffer, this.unit, all, now);
    return this.publish(dirty);
  }

  /** Bytes of kept pictures (pages) the unit holds. */
  get keptPictureBytes(): number {
    return keptBytes(this.allRenderers());
  }

  /**
   * Draws rectangle `r` of the unit a strip at a time on a scratch canvas (scratch.ts:
   * translated, clipped, filled black first) and reads each strip back into the picture
   * buffer. Every area draws from scratch, so the canvas needs no memory of earlier frames:
   * a 1080p unit holds one 1920x128 surface instead of a second 8 MB picture.
   * `overlay` draws the whole unit instead of the areas.
   */
  private paint(r: Rect, overlay: Overlay | undefined, now: number): void {
    const W = this.unit.width,
      H = this.unit.height;
    const all = overlay ? undefined : this.allRenderers();
    const s = this.scratch.for(r),
      { canvas, ctx } = s;
    this.untouched = false;
    for (let y = r.y; y < r.y + r.h; y += canvas.height) {
      const h = Math.min(canvas.height, r.y + r.h - y);
      ctx.save();
      ctx.translate(-s.x, -y);
      ctx.beginPath();
      ctx.rect(r.x, y, r.w, h);
      ctx.clip();
      ctx.fillStyle = '#000';
      ctx.fillRect(r.x, y, r.w, h);
      if (overlay) overlay.draw(ctx, W, H, now);
      else {
        const strip = this.strip;
        strip.x = r.x;
        strip.y = y;
        strip.w = r.w;
        strip.h = h;
        for (let i = 0; i < all!.length; i++) if (intersects(strip, all![i].rect)) all![i].draw(ctx, now);
      }
      ctx.restore();
      // Cairo's pixels to RGBA in the picture, only where something changed.
      readBack(canvas, ctx, r.x - s.x, r.w, h, this.buffer, W, y, r.x);
    }
  }

  /** Shows `overlay` over the whole unit from the next render on; undefined gives the displays back. */
  setOverlay(overlay: Overlay | undefined): void {
    this.overlay = overlay;
    this.overlayNext = -Infinity;
    if (!overlay) this.everythingDirty = true;
  }

  hasOverlay(): boolean {
    return this.overlay !== undefined;
  }

  private renderOverlay(overlay: Overlay, now: number): Frame {
    if (now < this.overlayNext) return this.last;
    const { width: W, height: H } = this.unit;
    const all = { x: 0, y: 0, w: W, h: H };
    this.paint(all, overlay, now);
    this.overlayNext = overlay.nextChange(now);
    return this.publish([all]);
  }

  private publish(rects: Rect[]): Frame {
    const since = this.seq;
    this.last = {
      width: this.unit.width,
      height: this.unit.height,
      data: this.buffer,
      seq: ++this.seq,
      damage: { since, rects },
    };
    if (this.listeners.size) for (const fn of this.listeners) fn(this.last);
    return this.last;
  }

  latest(): Frame {
    return this.last;
  }

  /** ms epoch of the earliest change on screen after `now`; Infinity when nothing animates. */
  nextChange(now: number): number {
    if (this.overlay) return this.overlayNext;
    let t = Infinity;
    const all = this.allRenderers();
    for (let i = 0; i < all.length; i++) t = Math.min(t, all[i].nextChange(now));
    return t;
  }

  /** Areas whose last drawing failed, for /status (they show their background meanwhile). */
  faults(): Array<{ display: string; area: string; message: string }> {
    const out: Array<{ display: string; area: string; message: string }> = [];
    for (const [display, m] of this.memory) {
      for (const ar of m.renderers) if (ar.fault) out.push({ display, area: ar.area.id, message: ar.fault });
    }
    return out;
  }

  /** How each text area's text fitted, for /status and `mlds test`. */
  textFits(): Array<{ display: string; area: string } & TextFit> {
    const out: Array<{ display: string; area: string } & TextFit> = [];
    for (const [display, m] of this.memory) {
      for (const ar of m.renderers) {
        const f = ar.textFit;
        if (f) out.push({ display, area: ar.area.id, ...f });
      }
    }
    return out;
  }

  /** What the content on show in each area reports of it, for /status (a board's rows and state). */
  reports(): Array<{ display: string; area: string } & ContentReport> {
    const out: Array<{ display: string; area: string } & ContentReport> = [];
    for (const [display, m] of this.memory) {
      for (const ar of m.renderers) {
        const r = ar.report();
        if (r) out.push({ display, area: ar.area.id, ...r });
      }
    }
    return out;
  }

  /** Called with every new frame (not with unchanged ones); returns the unsubscribe function. */
  subscribe(fn: (frame: Frame) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  /**
   * A reload changed the unit's displays: what `keep` (unchanged displays) has drawn stays,
   * every other display is laid out again from its state, and the whole picture is repainted
   * on the next render (no black frame in between).
   */
  reconfigure(displays: DisplayConfig[], keep: Set<string>, options: CompositorOptions): void {
    this.displays = displays;
    this.renderers = undefined;
    for (const [id, m] of [...this.memory]) {
      if (keep.has(id)) continue;
      for (const ar of m.renderers) ar.dispose();
      this.memory.delete(id);
    }
    this.opts = renderOptions(options);
    this.everythingDirty = true;
  }

  /** Nothing will be drawn for a while (the frame loop stopped): video decoders and web pages end until drawn again. */
  suspendMedia(): void {
    for (const ar of this.allRenderers()) ar.suspend();
  }

  /** Repaint everything on the next render (after a brightness or configuration change). */
  invalidateAll(): void {
    this.everythingDirty = true;
  }

  /** Every area of the unit in drawing order; one array, made again only when the displays' areas change. */
  private allRenderers(): AreaRenderer[] {
    if (this.renderers) return this.renderers;
    const out: AreaRenderer[] = [];
    for (const d of this.displays) {
      const m = this.memory.get(d.id);
      if (m) out.push(...m.renderers);
    }
    this.renderers = out;
    return out;
  }

  /**
   * The rectangles to repaint at `now`: a new array (it becomes the frame's damage), with no
   * other object made when nothing changed.
   */
  private collectDirty(now: number): Rect[] {
    const W = this.unit.width,
      H = this.unit.height;
    let dirty: Rect[] | undefined;
    // The usual frame changes one area: its rectangle alone, as the array that area keeps for it.
    let only: AreaRenderer | undefined, onlyRect: Rect | undefined;
    for (let di = 0; di < this.displays.length; di++) {
      const d = this.displays[di];
      const st = this.stateOf(d.id);
      let m = this.memory.get(d.id);
      const layout = st.layout ? d.layouts.get(st.layout) : undefined;
      if (!m || m.layout !== layout?.name || m.layoutSetAt !== st.layoutSetAt) {
        // A layout switch replaces the whole picture of the display at once (and ends its videos and pages).
        for (const ar of m?.renderers ?? []) ar.dispose();
        m = {
          layout: layout?.name,
          layoutSetAt: st.layoutSetAt,
          renderers: layout ? layout.areas.map((a) => new AreaRenderer(a, this.opts)) : [],
        };
        this.memory.set(d.id, m);
        this.renderers = undefined;
        (dirty ??= []).push({ x: 0, y: 0, w: Math.min(d.width, W), h: Math.min(d.height, H) });
      }
      const renderers = m.renderers;
      for (let i = 0; i < renderers.length; i++) {
        const ar = renderers[i];
        ar.sync(st.areas.get(ar.area.id), now);
        if (!ar.changed(now)) continue;
        const r = ar.changedRect(now);
        if (!dirty && !only) {
          only = ar;
          onlyRect = r;
          continue;
        }
        if (only) {
          (dirty ??= []).push(onlyRect!);
          only = undefined;
        }
        dirty!.push(r);
      }
    }
    if (this.everythingDirty) {
      this.everythingDirty = false;
      return [{ x: 0, y: 0, w: W, h: H }];
    }
    if (only) {
      const r = onlyRect!;
      if (!dirty && r.x >= 0 && r.y >= 0 && r.x + r.w <= W && r.y + r.h <= H && r.w > 0 && r.h > 0)
        return only.alone(r);
      (dirty ??= []).push(r);
    }
    return dirty ? visibleOnly(dirty, this.bounds) : NOTHING;
  }
}

/** What an unchanged screen repaints: never added to, so one array serves every frame. */
const NOTHING: Rect[] = Object.freeze([]) as unknown as Rect[];
