import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AreaConfig, AreaOf, AreaType, DisplayConfig, UnitConfig } from '../../src/config/types.js';
import type { AreaState, DisplayState } from '../../src/control/state.js';
import { Compositor, type CompositorOptions } from '../../src/render/compositor.js';
import type { Frame } from '../../src/output/types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FONT_DIR = path.join(ROOT, 'fonts');
export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A test's area: of type `text` unless `p` names another, with these values for what `p` leaves out. */
export function area<T extends AreaType = 'text'>(p: Partial<AreaOf<T>> & { id: string; type?: T }): AreaOf<T> {
  return {
    type: 'text',
    x: 0,
    y: 0,
    width: 640,
    height: 160,
    params: {},
    align: 'left',
    fontSize: 64,
    fontColor: { r: 255, g: 255, b: 255 },
    textFromStart: true,
    textLiveUpdate: false,
    headToTail: 0,
    scrollSpeed: 4,
    dispEffect: 1,
    clearEffect: 1,
    ...p,
  } as unknown as AreaOf<T>;
}

/** Display d1 alone on unit `unitKey` (virtual output), holding `layouts` (name -> areas), its start screen blank. */
export function soleDisplay(width: number, height: number, layouts: Record<string, AreaConfig[]>, unitKey = 'u') {
  const display: DisplayConfig = {
    id: 'd1',
    width,
    height,
    infoScreenTtl: 0,
    sensorBrightness: false,
    startScreen: { loadLastRequest: false },
    layouts: new Map(Object.entries(layouts).map(([name, areas]) => [name, { name, areas }])),
    output: { driver: 'virtual' },
    unit: unitKey,
  };
  const unit: UnitConfig = { key: unitKey, output: { driver: 'virtual' }, width, height, displayIds: ['d1'] };
  return { display, unit };
}

/** One display on its own unit, one layout "main" holding the given areas, and a mutable state. */
export function rig(areas: AreaConfig[], opts: CompositorOptions & { width?: number; height?: number } = {}) {
  const width = opts.width ?? 640;
  const height = opts.height ?? 160;
  const { display, unit } = soleDisplay(width, height, { main: areas }, 'u1');
  const state: DisplayState = { id: 'd1', layout: 'main', layoutSetAt: T0, areas: new Map(), version: 1 };
  const compositor = new Compositor(unit, [display], () => state, {
    fontDirs: [FONT_DIR],
    effectDurationMs: 500,
    ...opts,
  });
  // These tests keep frames across renders, and a compositor's frames are views of its one
  // picture buffer (src/frame.ts): each frame handed to a test is a copy.
  const render = compositor.render.bind(compositor);
  compositor.render = (now?: number) => {
    const f = render(now);
    return { ...f, data: f.data.slice() };
  };
  const set = (a: AreaConfig, s: Partial<AreaState> & { setAt: number }) => {
    state.areas.set(a.id, { area: a, source: 'request', ...s });
    state.version++;
  };
  return { compositor, state, set, display, unit };
}

export function px(f: Frame, x: number, y: number): [number, number, number, number] {
  const i = (y * f.width + x) * 4;
  return [f.data[i], f.data[i + 1], f.data[i + 2], f.data[i + 3]];
}

/** Lines (columns when `byColumn`, else rows) of the rectangle holding a pixel whose red channel exceeds `min`. */
function inkLines(f: Frame, byColumn: boolean, x0: number, x1: number, y0: number, y1: number, min: number): number[] {
  const [o0, o1, i0, i1] = byColumn ? [x0, x1, y0, y1] : [y0, y1, x0, x1];
  const out: number[] = [];
  for (let o = o0; o < o1; o++) {
    for (let i = i0; i < i1; i++) {
      const [x, y] = byColumn ? [o, i] : [i, o];
      if (f.data[(y * f.width + x) * 4] > min) {
        out.push(o);
        break;
      }
    }
  }
  return out;
}

/** Columns in [x0, x1) with ink (red above `min`) in rows [y0, y1). */
export const inkColumns = (f: Frame, x0: number, x1: number, y0 = 0, y1 = f.height, min = 128) =>
  inkLines(f, true, x0, x1, y0, y1, min);
/** Rows in [y0, y1) with ink (red above `min`) in columns [x0, x1). */
export const inkRows = (f: Frame, x0: number, x1: number, y0 = 0, y1 = f.height, min = 128) =>
  inkLines(f, false, x0, x1, y0, y1, min);

/** Count of pixels in a rectangle whose red channel exceeds `min`. */
export function lit(f: Frame, x0: number, y0: number, w: number, h: number, min = 128): number {
  let n = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (f.data[(y * f.width + x) * 4] > min) n++;
  return n;
}
