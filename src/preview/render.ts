import type { DisplayState } from '../control/state.js';
import type { Controller } from '../control/controller.js';
import type { ServiceConfig, UnitConfig } from '../config/types.js';
import { Compositor } from '../render/compositor.js';
import { encodeFrame } from '../render/encode.js';
import { scrollPxPerSecond } from '../render/content/scroll.js';
import type { BoardSource } from '../config/board-source.js';
import { useFontDirs } from '../text/fonts.js';
import { fontDirsOf, measureLine } from './fit.js';
import { scrollingOf } from '../config/area-types/text-look.js';
import { offlineController } from './offline.js';

/** An area whose text is wider than the area, so the panel scrolls it. */
export interface ScrollNote {
  display: string;
  layout: string;
  area: string;
  textWidth: number;
  areaWidth: number;
}

/** How a text area's text fitted its area (as /status reports it). */
export interface FitNote {
  display: string;
  layout: string;
  area: string;
  fit: string;
  size: number;
  clippedPx?: number;
}

export interface Preview {
  name: string;
  png: Buffer;
  scrolls: ScrollNote[];
  fits: FitNote[];
}

export function describeFit(n: FitNote): string {
  const cut = n.clippedPx ? ` (${n.clippedPx} px cut)` : '';
  return `${n.display}/${n.layout}/${n.area}: fit ${n.fit} at ${n.size} px${cut}`;
}

export function describeScroll(n: ScrollNote): string {
  return `${n.display}/${n.layout}/${n.area}: scrolls (text is ${n.textWidth} px wide, area ${n.areaWidth} px)`;
}

/**
 * Renders every layout of every display once, each area with its defaultValue (or blank),
 * through the same control and compositor code as the running service: `mlds test`.
 */
export async function renderLayoutsToPng(config: ServiceConfig, boards?: BoardSource): Promise<Preview[]> {
  const controller = offlineController(config);
  const out: Preview[] = [];
  try {
    for (const d of config.displays) {
      for (const layout of d.layouts.keys()) {
        out.push(
          await renderCommand(
            config,
            controller,
            `id=${encodeURIComponent(d.id)}&layout=${encodeURIComponent(layout)}`,
            boards,
          ),
        );
      }
    }
  } finally {
    controller.dispose();
  }
  return out;
}

/**
 * One display as it looks after one control message. A still picture cannot show a scroll
 * in motion, and a random moment of it ("ice      Not in s") reads as a fault: each
 * scrolling text is shown with its head at the left edge of its area, the first words
 * readable as a passenger reads them once the text has come in. Other content is shown
 * settled (past any effect).
 */
export async function renderCommand(
  config: ServiceConfig,
  controller: Controller,
  query: string,
  boards?: BoardSource,
): Promise<Preview> {
  // 'replay': resolved exactly like a request, but neither stored nor confirmed.
  const applied = await controller.apply(query, 'replay');
  const d = config.displayById.get(applied.displayId)!;
  const now = Date.now();
  const live = controller.state(d.id);
  const fontDirs = fontDirsOf(config);
  useFontDirs(fontDirs);
  const scrolls: ScrollNote[] = [];
  const areas = new Map(live.areas);
  for (const [id, st] of live.areas) {
    let setAt = now - 60_000;
    if (st.text !== undefined && st.text !== '' && 'fontSize' in st.area) {
      const line = measureLine(st.area, st.text, st.fontSize);
      if (line.scrolls) {
        scrolls.push({
          display: d.id,
          layout: applied.layout,
          area: id,
          textWidth: line.width,
          areaWidth: st.area.width,
        });
        // The scroll position follows the clock from setAt: travelled distance = area width puts the head at x = 0.
        setAt = now - Math.ceil((st.area.width * 1000) / scrollPxPerSecond(scrollingOf(st.area).scrollSpeed));
      }
    }
    areas.set(id, { ...st, setAt });
  }
  const shown: DisplayState = { ...live, areas };
  const unit: UnitConfig = {
    key: d.id,
    output: { driver: 'virtual' },
    width: d.width,
    height: d.height,
    displayIds: [d.id],
  };
  // A still picture has no frame rate: scrolls move 1 px at a time, so the head lands exactly at x = 0.
  // Departures areas draw from the schedules `mlds test` read (their scheduled departures now), else show their
  // noDataText.
  const view = { source: boards, version: 0 };
  const compositor = new Compositor(unit, [d], () => shown, {
    effectDurationMs: 0,
    timezone: config.timezone,
    fontDirs,
    fps: Infinity,
    boards: () => view,
  });
  const frame = compositor.render(now);
  const fits = compositor.textFits().map((t) => ({
    display: d.id,
    layout: applied.layout,
    area: t.area,
    fit: t.fit,
    size: t.size,
    ...(t.clippedPx ? { clippedPx: t.clippedPx } : {}),
  }));
  return {
    name: `${safe(d.id)}--${safe(applied.layout)}.png`,
    png: encodeFrame(frame, d.width, d.height, 'png'),
    scrolls,
    fits,
  };
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
