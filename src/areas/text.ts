// static, text and dynamic areas: a line of text, static when it fits, scrolling otherwise.
import { pointer } from '../config/faults.js';
import type { AreaConfig, AreaType } from '../config/types.js';
import type { AreaState } from '../control/state.js';
import { MldsError } from '../errors.js';
import type { Content } from '../render/areas/content.js';
import { scrollPxPerSecond } from '../render/areas/scroll.js';
import { TextContent } from '../render/areas/text.js';
import type { AreaKind, AreaRules, DrawEnv } from './kind.js';
import { fontOf, hasOwn, paramFor } from './rules.js';

/** How a text looks; date areas share these. */
export const TEXT_LOOK = ['align', 'font', 'fontSize', 'fontColor'] as const;
const SCROLLING = ['textFromStart', 'textLiveUpdate', 'headToTail', 'scrollSpeed'] as const;
const MAX_TEXT = 4096;
const MAX_STATIC = 255;

function drawText(a: AreaConfig, st: AreaState | undefined, env: DrawEnv): Content | undefined {
  if (!st || st.source === 'none' || !st.text) return undefined;
  const prev = env.previous instanceof TextContent && env.previous.scrolls ? env.previous : undefined;
  // A live swap keeps the scroll where it is; textFromStart=false carries it on after the effect.
  const origin = prev && (env.live || !a.textFromStart) ? prev.origin : env.start;
  return new TextContent({
    text: st.text,
    style: { font: a.font, size: st.fontSize ?? a.fontSize, color: st.fontColor ?? a.fontColor },
    width: a.width, height: a.height, align: a.align,
    pxPerSecond: scrollPxPerSecond(a.scrollSpeed), headToTail: a.headToTail, origin,
  });
}

function swapsLive(a: AreaConfig, previous: Content | undefined, st: AreaState | undefined): boolean {
  const live = a.type === 'dynamic' || (a.textLiveUpdate && (a.type === 'text' || a.type === 'static'));
  return live && previous instanceof TextContent && !!st?.text;
}

function freeText(type: AreaType): AreaKind {
  return {
    type,
    properties: ['defaultValue', ...TEXT_LOOK, ...SCROLLING],
    keyed: false,
    overrides: true,
    configure: (r: AreaRules) => ({ font: fontOf(r) }),
    resolve(area, value) {
      if (value.length > MAX_TEXT) throw new MldsError('MLDS_BAD_VALUE', `"${area.id}": text must be at most ${MAX_TEXT} characters`, area.id);
      return { text: value };
    },
    fallback: (area) => (area.defaultValue ? { text: area.defaultValue } : undefined),
    swapsLive,
    draw: drawText,
  };
}

/** Request value shown as given; longer than the area, it scrolls. */
export const text = freeText('text');
/** Like text, updated in place without resetting the scroll. */
export const dynamic = freeText('dynamic');

/** The request value is a key; its params text is shown (no arbitrary text reaches the panel). */
export const staticText: AreaKind = {
  type: 'static',
  properties: ['defaultValue', 'params', ...TEXT_LOOK],
  keyed: true,
  overrides: true,
  configure(r) {
    for (const [k, v] of Object.entries(r.params)) if (v.length > MAX_STATIC) r.fault(pointer('params', k), `must be at most ${MAX_STATIC} characters`);
    return { font: fontOf(r) };
  },
  resolve: (area, value) => ({ text: paramFor(area, value) }),
  // A defaultValue that is one of the params keys shows that key's text; otherwise the text itself.
  fallback: (area) => {
    const dv = area.defaultValue;
    return dv ? { text: hasOwn(area.params, dv) ? area.params[dv] : dv } : undefined;
  },
  swapsLive,
  draw: drawText,
};
