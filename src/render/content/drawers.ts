// How each area type draws: the picture (Content) for an area's state, whether a new state
// replaces the old one in place, and what /status reports of a clock. What a type accepts and
// what a value means is the configuration's (src/config/area-types/); a type without a drawer
// here shows its background only (audio). Each type's drawer takes that type's area.
import { DEFAULTS } from '../../config/defaults.js';
import { scrollingOf } from '../../config/area-types/text-look.js';
import type { AreaConfig, AreaOf, AreaTaking, AreaType } from '../../config/types.js';
import type { AreaState } from '../../control/state.js';
import { BlockContent } from './block.js';
import type { Content } from './content.js';
import { DateContent, shownDate } from './date.js';
import { DeparturesContent, type Boards } from './departures.js';
import { ImageContent } from './image.js';
import { cycleOrigin } from './page-clock.js';
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

/** How the areas of one type, `A`, draw; each method takes that type's area. */
export interface AreaDrawer<A extends AreaConfig = AreaConfig> {
  /** The picture for a state; undefined: the background only. Lazy: nothing starts until drawn. */
  draw?(area: A, state: AreaState | undefined, env: DrawEnv): Content | undefined;
  /** The new state replaces `previous` in place (no effect, scroll kept): dynamic text. */
  swapsLive?(area: A, previous: Content | undefined, state: AreaState | undefined): boolean;
  /** Same picture: a change between equal signatures is no change (no effect, no restart). */
  signature?(area: A, state: AreaState | undefined): string;
  /** Text /status gives for the area (a clock's current text); default: its content's report, else the state's text. */
  statusText?(area: A, state: AreaState, now: number, timezone?: string): string | undefined;
}

type SignText = AreaTaking<'markup'>;

function drawText(a: SignText, st: AreaState | undefined, env: DrawEnv): Content | undefined {
  if (!st || st.source === 'none' || !st.text) return undefined;
  const prev =
    (env.previous instanceof TextContent || env.previous instanceof BlockContent) && env.previous.scrolls
      ? env.previous
      : undefined;
  const scroll = scrollingOf(a);
  // A live swap keeps the scroll where it is; textFromStart=false carries it on after the effect.
  const origin = prev && (env.live || !scroll.textFromStart) ? prev.origin : env.start;
  const size = st.fontSize ?? a.fontSize;
  const color = st.fontColor ?? a.fontColor;
  const pxPerSecond = scrollPxPerSecond(scroll.scrollSpeed);
  const step = scrollStep(pxPerSecond, env.fps ?? DEFAULTS.fps);
  if (needsLayout(a, st.text))
    return signTextContent({ area: a, text: st.text, size, color, pxPerSecond, origin, step });
  return new TextContent({
    text: st.text,
    style: { font: a.font, size, color },
    width: a.width,
    height: a.height,
    align: a.align,
    pxPerSecond,
    headToTail: scroll.headToTail,
    origin: cycleOrigin(a.sync, 'scroll', origin),
    step,
  });
}

/** A text on show is replaced in place by the new state's text. */
function swapsText(previous: Content | undefined, st: AreaState | undefined): boolean {
  return (previous instanceof TextContent || previous instanceof BlockContent) && !!st?.text;
}

function safeDate(area: AreaOf<'date'>, now: number, zone?: string): string {
  try {
    return shownDate(area, now, zone);
  } catch (err) {
    return `(${(err as Error).message})`;
  }
}

/** A request's file or page that fails falls back to the defaultValue's (not to itself). */
function fallbackOf(a: AreaTaking<'defaultValue'>, st: AreaState, shown: string): string | undefined {
  return st.source === 'request' && a.defaultValue && a.defaultValue !== shown ? a.defaultValue : undefined;
}

const DRAWERS: { readonly [T in AreaType]: AreaDrawer<AreaOf<T>> } = {
  // A static area takes no textLiveUpdate: its new text comes through its effects.
  static: { draw: drawText },
  text: { draw: drawText, swapsLive: (a, previous, st) => a.textLiveUpdate && swapsText(previous, st) },
  // Swapped in place always: the point of a dynamic area.
  dynamic: { draw: drawText, swapsLive: (_a, previous, st) => swapsText(previous, st) },
  image: {
    draw: (a, st, env) =>
      st && st.source !== 'none' && st.file ? new ImageContent(st.file, a.width, a.height, env.start) : undefined,
  },
  video: {
    draw: (a, st) =>
      st && st.source !== 'none' && st.file
        ? new VideoContent(st.file, fallbackOf(a, st, st.file), a.width, a.height)
        : undefined,
  },
  date: {
    // The clock shows whenever the area has not been cleared.
    draw: (a, st, env) =>
      st?.source === 'none'
        ? undefined
        : new DateContent(a, { font: a.font, size: a.fontSize, color: a.fontColor }, env.timezone),
    signature: (_a, st) => (st?.source === 'none' ? '' : 'clock'),
    statusText: (a, st, now, zone) => (st.source === 'none' ? undefined : safeDate(a, now, zone)),
  },
  // Plays through src/playback/audio-areas.ts.
  audio: {},
  web: {
    draw: (a, st) =>
      st && st.source !== 'none' && st.url
        ? new WebContent({
            url: st.url,
            fallback: fallbackOf(a, st, st.url),
            width: a.width,
            height: a.height,
            xy: a.xy ?? { x: 0, y: 0 },
            refreshSeconds: a.refreshSeconds,
          })
        : undefined,
  },
  departures: {
    // The board shows whenever the area has not been cleared.
    // Its pages (or its scroll, with sync "clock") count from the epoch: the start it is given.
    draw: (a, st, env) =>
      st?.source === 'none'
        ? undefined
        : new DeparturesContent(a, { ...env, start: cycleOrigin(a.sync, a.overflow ?? 'pages', env.start) }),
    // Its text and state on /status are what the board last showed (DeparturesContent.report).
    signature: (_a, st) => (st?.source === 'none' ? '' : 'board'),
  },
};

/** How `type`'s areas draw: hand its methods an area of that type (`drawerOf(area.type).draw(area, ...)`). */
export function drawerOf(type: AreaType): AreaDrawer {
  return DRAWERS[type];
}
