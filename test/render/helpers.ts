import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AreaConfig, DisplayConfig, UnitConfig } from '../../src/config/types.js';
import type { AreaState, DisplayState } from '../../src/control/state.js';
import { Compositor, type CompositorOptions } from '../../src/render/compositor.js';
import type { Frame } from '../../src/output/types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FONT_DIR = path.join(ROOT, 'fonts');
export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

export function area(p: Partial<AreaConfig> & Pick<AreaConfig, 'id'>): AreaConfig {
  return {
    type: 'text', x: 0, y: 0, width: 640, height: 160, params: {}, align: 'left',
    fontSize: 64, fontColor: { r: 255, g: 255, b: 255 }, textFromStart: true, textLiveUpdate: false,
    headToTail: 0, scrollSpeed: 4, dispEffect: 1, clearEffect: 1, ...p,
  };
}

/** One display on its own unit, one layout "main" holding the given areas, and a mutable state. */
export function rig(areas: AreaConfig[], opts: CompositorOptions & { width?: number; height?: number } = {}) {
  const width = opts.width ?? 640;
  const height = opts.height ?? 160;
  const display: DisplayConfig = {
    id: 'd1', width, height, infoScreenTtl: 0, sensorBrightness: false,
    startScreen: { loadLastRequest: false }, layouts: new Map([['main', { name: 'main', areas }]]),
    output: { driver: 'virtual' }, unit: 'u1',
  };
  const unit: UnitConfig = { key: 'u1', output: { driver: 'virtual' }, width, height, displayIds: ['d1'] };
  const state: DisplayState = { id: 'd1', layout: 'main', layoutSetAt: T0, areas: new Map(), version: 1 };
  const compositor = new Compositor(unit, [display], () => state, { fontDirs: [FONT_DIR], effectDurationMs: 500, ...opts });
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

/** Columns (within [x0, x1)) holding any pixel brighter than `min` in the red channel, rows y0..y1. */
export function inkColumns(f: Frame, x0: number, x1: number, y0 = 0, y1 = f.height, min = 128): number[] {
  const cols: number[] = [];
  for (let x = x0; x < x1; x++) {
    for (let y = y0; y < y1; y++) {
      if (f.data[(y * f.width + x) * 4] > min) { cols.push(x); break; }
    }
  }
  return cols;
}

export function inkRows(f: Frame, x0: number, x1: number, y0 = 0, y1 = f.height, min = 128): number[] {
  const rows: number[] = [];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (f.data[(y * f.width + x) * 4] > min) { rows.push(y); break; }
    }
  }
  return rows;
}

/** Count of pixels in a rectangle whose red channel exceeds `min`. */
export function lit(f: Frame, x0: number, y0: number, w: number, h: number, min = 128): number {
  let n = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (f.data[(y * f.width + x) * 4] > min) n++;
  return n;
}
