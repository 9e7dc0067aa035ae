import type { CanvasRenderingContext2D } from 'canvas';
import type { AreaConfig } from '../config/types.js';
import type { AreaState } from '../control/state.js';
import { drawerOf, type AreaDrawer, type DrawEnv } from './content/drawers.js';
import type { Boards } from './content/departures.js';
import type { Content, ContentReport, TextFit } from './content/content.js';
import type { Rect } from '../frame.js';
import { AreaRects } from './area-rects.js';
import { AreaLayer, backgroundStyle, drawArea, type Phase } from './area-draw.js';
import type { EffectPhase } from './effects.js';
import { fontFaults } from '../text/fonts.js';

export interface RenderOptions {
  /** Length of one dispEffect or clearEffect. */
  effectDurationMs: number;
  /** IANA zone for date areas without dateOffset (undefined: the system's). */
  timezone?: string;
  /** The unit's frame rate. */
  fps?: number;
  /** The unit's departure boards (departures areas). */
  boards?: () => Boards;
}

/** The content key of an area showing nothing. */
const NO_CONTENT = '-';

/** What decides whether two states look the same: equal ones swap without an effect. */
function signature(drawer: AreaDrawer, area: AreaConfig, st: AreaState | undefined): string {
  if (drawer.signature) return drawer.signature(area, st);
  if (!st || st.source === 'none') return '';
  const c = st.fontColor;
  return JSON.stringify([
    st.text ?? null,
    st.file ?? null,
    st.url ?? null,
    c ? [c.r, c.g, c.b] : null,
    st.fontSize ?? null,
  ]);
}

/**
 * One area's memory between frames: the content on show, the content leaving, and the
 * effect timeline. Control only replaces AreaState objects; everything that depends on
 * what was there before (clearEffect of the old content, textFromStart=false continuing
 * the scroll, live updates) is worked out here by comparing old and new.
 *
 * Timeline of a change at T (the new state's setAt), D = effectDurationMs:
 * [T, T+Dc) old content leaves with clearEffect (Dc = D, or 0 when there was nothing or
 * clearEffect is 1); [T+Dc, T+Dc+Dd) new content enters with dispEffect (Dd likewise);
 * the new content's own clock (scroll origin, GIF start) is T+Dc.
 */
export class AreaRenderer {
  private seen: AreaState | undefined | null = null;
  private sig = '';
  private current: Content | undefined;
  private leaving: Content | undefined;
  private changeAt = 0;
  private clearMs = 0;
  private dispMs = 0;
  private generation = 0;
  /** The canvas effects draw the content on first. */
  private readonly layer: AreaLayer;
  /**
   * What was last painted: its content (null: nothing yet), that content's key, and the effect's kind and moment while
   * one ran.
   */
  private drawnContent: Content | undefined | null = null;
  private drawnInner: string | number | undefined;
  private drawnKind: EffectPhase | undefined;
  private drawnElapsed = 0;
  private drawnGeneration = -1;
  private drawnSteady = false;
  /** Pictures of repeating content (pages), by key, while the content lasts (see Compositor.keepPictures). */
  private readonly pictures = new Map<string, Uint8Array>();
  private pictureBytes = 0;
  private readonly ph: Phase = { content: undefined, effect: undefined, kind: undefined, p: 1, elapsed: 0 };
  private keyInner: string | number = '';
  private keyGeneration = -1;
  private keyText = '';
  /** The background's CSS colour (undefined: none). */
  private readonly background: string | undefined;
  /** The area's rectangle on the unit; never changed, so frames may keep it as damage. */
  readonly rect: Rect;
  /** How the area's type draws. */
  private readonly drawer: AreaDrawer;
  /** changedRect()'s answers, and each as a frame's whole damage. */
  private readonly rects: AreaRects;

  constructor(
    readonly area: AreaConfig,
    private readonly opts: RenderOptions,
  ) {
    this.drawer = drawerOf(area.type);
    this.rects = new AreaRects(area);
    this.rect = this.rects.whole;
    this.background = backgroundStyle(area);
    this.layer = new AreaLayer(area.width, area.height);
  }

  sync(st: AreaState | undefined, now: number): void {
    if (st === this.seen) return;
    const first = this.seen === null;
    this.seen = st;
    const sig = signature(this.drawer, this.area, st);
    if (!first && sig === this.sig) return;
    this.sig = sig;
    this.generation++;
    this.dropPictures();
    const at = st?.setAt ?? now;
    const old = this.current;
    const a = this.area;

    if (this.drawer.swapsLive?.(a, old, st)) {
      this.buildFault = undefined;
      // Swapped in place: no effect, and the scroll keeps its origin so nothing jumps back.
      this.current = this.makeContent(st, {
        start: at,
        previous: old,
        live: true,
        timezone: this.opts.timezone,
        fps: this.opts.fps,
        boards: this.opts.boards,
      });
      this.retire(old);
      this.retire(this.leaving);
      this.leaving = undefined;
      this.changeAt = at;
      this.clearMs = this.dispMs = 0;
      return;
    }

    const D = this.opts.effectDurationMs;
    this.retire(this.leaving);
    this.leaving = old;
    this.changeAt = at;
    this.clearMs = old && a.clearEffect !== 1 ? D : 0;
    // Content that leaves without an effect is never drawn again: its decoder or page ends now.
    if (this.clearMs === 0) {
      this.retire(old);
      this.leaving = undefined;
    }
    this.buildFault = undefined;
    this.current = this.makeContent(st, {
      start: at + this.clearMs,
      previous: old,
      live: false,
      timezone: this.opts.timezone,
      fps: this.opts.fps,
      boards: this.opts.boards,
    });
    this.dispMs = this.current && a.dispEffect !== 1 ? D : 0;
  }

  private makeContent(st: AreaState | undefined, env: DrawEnv): Content | undefined {
    try {
      return this.drawer.draw?.(this.area, st, env);
    } catch (err) {
      this.buildFault = err instanceof Error ? err.message : String(err);
      return undefined;
    }
  }

  private retire(c: Content | undefined): void {
    c?.dispose?.();
  }

  /** The area leaves the screen (a layout switch, a reload): everything its contents hold ends. */
  dispose(): void {
    this.dropPictures();
    this.leaving?.dispose?.();
    this.current?.dispose?.();
    this.leaving = undefined;
  }

  /** Nothing will draw it for a while (its frame loop stopped): decoders and pages end until it is drawn again. */
  suspend(): void {
    this.leaving?.suspend?.();
    this.current?.suspend?.();
  }

  /**
   * Which content shows at `now`, through which effect, at what progress. The answer is one
   * object overwritten by each call (read it before the next): a frame asks several times.
   */
  private phase(now: number): Phase {
    const ph = this.ph;
    const e = now - this.changeAt;
    ph.elapsed = e;
    if (e < this.clearMs) {
      ph.content = this.leaving;
      ph.effect = this.area.clearEffect;
      ph.kind = 'leave';
      ph.p = Math.max(0, e) / this.clearMs;
      return ph;
    }
    const d = e - this.clearMs;
    ph.content = this.current;
    if (d < this.dispMs) {
      ph.effect = this.area.dispEffect;
      ph.kind = 'enter';
      ph.p = Math.max(0, d) / this.dispMs;
    } else {
      ph.effect = undefined;
      ph.kind = undefined;
      ph.p = 1;
    }
    return ph;
  }

  /**
   * The phase at `now`, once a decoder or page that has finished leaving has ended (still pictures stay: a test may
   * look back in time).
   */
  private settled(now: number): Phase {
    if (this.leaving?.dispose && now >= this.changeAt + this.clearMs) {
      this.leaving.dispose();
      this.leaving = undefined;
    }
    return this.phase(now);
  }

  /** The key of the kept picture for `now` (pages): every part of what is on show, as one string. */
  private pictureKey(now: number): string {
    const ph = this.settled(now);
    const inner = ph.content ? ph.content.key(now) : '-';
    if (ph.effect) return `${this.generation}:${ph.kind}${Math.max(0, ph.elapsed)}:${inner}`;
    if (inner !== this.keyInner || this.keyGeneration !== this.generation) {
      this.keyInner = inner;
      this.keyGeneration = this.generation;
      this.keyText = `${this.generation}:${inner}`;
    }
    return this.keyText;
  }

  /**
   * Whether the picture at `now` differs from the one last painted (see markDrawn): another
   * generation or content, another content key, another effect or moment of it. Compared part
   * by part, so a frame makes no key string.
   */
  changed(now: number): boolean {
    const ph = this.settled(now);
    const c = ph.content;
    if (c !== this.drawnContent || this.generation !== this.drawnGeneration) return true;
    if ((c ? c.key(now) : NO_CONTENT) !== this.drawnInner) return true;
    const kind = ph.effect ? ph.kind : undefined;
    if (kind !== this.drawnKind) return true;
    return kind !== undefined && Math.max(0, ph.elapsed) !== this.drawnElapsed;
  }

  /**
   * The part of the frame that may differ from what was last painted: the whole area,
   * except while the same content runs without an effect and says which rows it paints
   * (a scrolling line in a tall area only changes its own rows).
   */
  changedRect(now: number): Rect {
    const rows = this.current?.rows?.();
    if (!rows || !this.drawnSteady || this.drawnGeneration !== this.generation || !this.steady(now)) {
      return this.rect;
    }
    return this.rects.rowsOf(rows.y, rows.h);
  }

  /** `r`, an answer of changedRect(), as a frame's whole damage: one array for every such frame (frozen). */
  alone(r: Rect): Rect[] {
    return this.rects.alone(r);
  }

  markDrawn(now: number): void {
    const ph = this.settled(now);
    this.drawnContent = ph.content;
    this.drawnInner = ph.content ? ph.content.key(now) : NO_CONTENT;
    this.drawnKind = ph.effect ? ph.kind : undefined;
    this.drawnElapsed = Math.max(0, ph.elapsed);
    this.drawnGeneration = this.generation;
    this.drawnSteady = this.steady(now);
  }

  /** Whether the picture at `now` is one of a few that recur unchanged (steady pages): worth keeping. */
  repeatsAt(now: number): boolean {
    return !!this.current?.repeats && this.steady(now);
  }

  /** The area's kept picture (RGBA rows of the area as the unit shows it) for `now`, if there is one. */
  picture(now: number): Uint8Array | undefined {
    return this.pictures.size && this.repeatsAt(now) ? this.pictures.get(this.pictureKey(now)) : undefined;
  }

  keepPicture(now: number, rgba: Uint8Array): void {
    this.pictures.set(this.pictureKey(now), rgba);
    this.pictureBytes += rgba.byteLength;
  }

  get keptBytes(): number {
    return this.pictureBytes;
  }

  private dropPictures(): void {
    this.pictures.clear();
    this.pictureBytes = 0;
  }

  private steady(now: number): boolean {
    return now >= this.changeAt + this.clearMs + this.dispMs;
  }

  nextChange(now: number): number {
    const end = this.changeAt + this.clearMs + this.dispMs;
    // An effect changes the picture on every frame until it ends; the loop paces it.
    if (now < end) return now < this.changeAt ? this.changeAt : now;
    return this.current ? this.current.nextChange(now) : Infinity;
  }

  /** How the text on show fitted (text areas; undefined for other content). */
  get textFit(): TextFit | undefined {
    return this.current?.textFit;
  }

  /** What the content on show reports of the area on /status (a board's rows and state). */
  report(): ContentReport | undefined {
    return this.current?.report?.();
  }

  private buildFault: string | undefined;
  private drawFault: string | undefined;

  /** Why this area cannot show its content (for /status); it shows its background meanwhile. */
  get fault(): string | undefined {
    const file = 'font' in this.area ? this.area.font : undefined;
    const font = file ? fontFaults().get(file) : undefined;
    const drawn = this.drawFault ?? this.buildFault ?? this.current?.fault;
    return drawn ?? (font && `font ${file}: ${font} (drawn in the default font)`);
  }

  draw(ctx: CanvasRenderingContext2D, now: number): void {
    this.drawFault = undefined;
    try {
      drawArea(ctx, this.area, this.background, this.phase(now), now, this.layer);
    } catch (err) {
      // One area that cannot be drawn (a font cairo rejects, a canvas too large) must not
      // take the rest of the panel, or the service, down with it.
      this.drawFault = err instanceof Error ? err.message : String(err);
    }
  }
}
