// How each area type draws: the picture (Content) for an area's state, whether a new state
// replaces the old one in place, and what /status reports of a clock. What a type accepts and
// what a value means is the configuration's (src/config/area-types/); a type without a drawer
// here shows its background only (audio).
import { DEFAULTS } from '../../config/defaults.js';
import type { AreaConfig, AreaType } from '../../config/types.js';
import type { AreaState } from '../../control/state.js';
import { BlockContent } from './block.js';
import type { Content } from './content.js';
import { DateContent, shownDate } from './date.js';
import type { BoardState } from '../../config/board-source.js';
import { DeparturesContent, shownBoard, type Boards } from './departures.js';
import { ImageContent } from './image.js';
import { scrollPxPerSecond, scrollStep } from './scroll.js';
import { needsLayout, signTextContent } from './sign-text.js';
import { TextContent } from './text.js';
import { VideoContent } from './video.js';
import { WebContent } from './web.js';

/** What drawing gets besides the area and its state. */
export interface DrawEnv {
  /** ms epoch from which the new content's own clock runs (scroll origin, GIF frame 0). */
  start: number;
  /** The content being replaced, when continuity matters (a scroll carried on). */
  previous?: Content;
  /** Swapped in place without an effect (see AreaDrawer.swapsLive). */
  live: boolean;
  /** IANA zone for clocks without dateOffset. */
  timezone?: string;
  /** The unit's frame rate (scrolls move in steps of at most one per frame). */
  fps?: number;
  /** The unit's departure boards (departures areas); undefined: none. */
  boards?: () => Boards;
}

export interface AreaDrawer {
  /** The picture for a state; undefined: the background only. Lazy: nothing starts until drawn. */
  draw?(area: AreaConfig, state: AreaState | undefined, env: DrawEnv): Content | undefined;
  /** The new state replaces `previous` in place (no effect, scroll kept): dynamic text. */
  swapsLive?(area: AreaConfig, previous: Content | undefined, state: AreaState | undefined): boolean;
  /** Same picture: a change between equal signatures is no change (no effect, no restart). */
  signature?(area: AreaConfig, state: AreaState | undefined): string;
  /** Text /status reports for the area (a clock's current text); default: the state's text. */
  statusText?(state: AreaState, now: number, timezone?: string): string | undefined;
  /** A departures area's feed state on /status (`board`): live, scheduled or no-data. */
  boardState?(state: AreaState): BoardState | undefined;
}

function drawText(a: AreaConfig, st: AreaState | undefined, env: DrawEnv): Content | undefined {
  if (!st || st.source === 'none' || !st.text) return undefined;
  const prev = (env.previous instanceof TextContent || env.previous instanceof BlockContent) && env.previous.scrolls ? env.previous : undefined;
  // A live swap keeps the scroll where it is; textFromStart=false carries it on after the effect.
  const origin = prev && (env.live || !a.textFromStart) ? prev.origin : env.start;
  const size = st.fontSize ?? a.fontSize;
  const color = st.fontColor ?? a.fontColor;
  const pxPerSecond = scrollPxPerSecond(a.scrollSpeed);
  const step = scrollStep(pxPerSecond, env.fps ?? DEFAULTS.fps);
  if (needsLayout(a, st.text)) return signTextContent({ area: a, text: st.text, size, color, pxPerSecond, origin, step });
  return new TextContent({
    text: st.text,
    style: { font: a.font, size, color },
    width: a.width, height: a.height, align: a.align,
    pxPerSecond, headToTail: a.headToTail, origin, step,
  });
}

function swapsLive(a: AreaConfig, previous: Content | undefined, st: AreaState | undefined): boolean {
  const live = a.type === 'dynamic' || (a.textLiveUpdate && (a.type === 'text' || a.type === 'static'));
  return live && (previous instanceof TextContent || previous instanceof BlockContent) && !!st?.text;
}

function safeDate(area: AreaConfig, now: number, zone?: string): string {
  try { return shownDate(area, now, zone); } catch (err) { return `(${(err as Error).message})`; }
}

/** A request's file or page that fails falls back to the defaultValue's (not to itself). */
function fallbackOf(a: AreaConfig, st: AreaState, shown: string): string | undefined {
  return st.source === 'request' && a.defaultValue && a.defaultValue !== shown ? a.defaultValue : undefined;
}

const text: AreaDrawer = { draw: drawText, swapsLive };

const DRAWERS: Record<AreaType, AreaDrawer> = {
  static: text,
  text,
  dynamic: text,
  image: {
    draw: (a, st, env) => (st && st.source !== 'none' && st.file ? new ImageContent(st.file, a.width, a.height, env.start) : undefined),
  },
  video: {
    draw: (a, st) => (st && st.source !== 'none' && st.file ? new VideoContent(st.file, fallbackOf(a, st, st.file), a.width, a.height) : undefined),
  },
  date: {
    // The clock shows whenever the area has not been cleared.
    draw: (a, st, env) => (st?.source === 'none' ? undefined : new DateContent(a, { font: a.font, size: a.fontSize, color: a.fontColor }, env.timezone)),
    signature: (_a, st) => (st?.source === 'none' ? '' : 'clock'),
    statusText: (st, now, zone) => (st.source === 'none' ? undefined : safeDate(st.area, now, zone)),
  },
  // Plays through src/playback/audio-areas.ts.
  audio: {},
  web: {
    draw: (a, st) => (st && st.source !== 'none' && st.url
      ? new WebContent({ url: st.url, fallback: fallbackOf(a, st, st.url), width: a.width, height: a.height, xy: a.xy ?? { x: 0, y: 0 }, refreshSeconds: a.refreshSeconds ?? 60 })
      : undefined),
  },
  departures: {
    // The board shows whenever the area has not been cleared.
    draw: (a, st, env) => (st?.source === 'none' ? undefined : new DeparturesContent(a, env)),
    signature: (_a, st) => (st?.source === 'none' ? '' : 'board'),
    statusText: (st) => (st.source === 'none' ? undefined : shownBoard(st.area)?.text),
    boardState: (st) => (st.source === 'none' ? undefined : shownBoard(st.area)?.state),
  },
};

export function drawerOf(type: AreaType): AreaDrawer {
  return DRAWERS[type];
}
