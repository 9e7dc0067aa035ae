import type { AreaConfig, Rgb } from '../config/types.js';
import { kindOf } from '../config/area-types/registry.js';
import type { AreaCommand } from './command.js';
import type { AreaState } from './state.js';

export interface Overrides {
  fontColor?: Rgb;
  fontSize?: number;
}

/** What an area shows when a command gives it a value ('' clears it). */
export function requestedContent(cmd: AreaCommand, o: Overrides, now: number): AreaState {
  const area = cmd.area;
  if (cmd.value === '') return { area, source: 'none', value: '', ...o, setAt: now };
  return {
    area,
    source: 'request',
    value: cmd.value,
    text: cmd.text,
    file: cmd.file,
    url: cmd.url,
    ...o,
    setAt: now,
    expiresAt: area.ttl ? now + area.ttl * 1000 : undefined,
  };
}

/** What an area shows without a value: its defaultValue, the clock for a date area, else blank. */
export function defaultContent(area: AreaConfig, o: Overrides, now: number): AreaState {
  const shown = kindOf(area.type).fallback(area);
  if (!shown) return { area, source: 'none', ...o, setAt: now };
  return { area, source: 'default', ...shown, ...o, setAt: now };
}

/** Same picture or text with the same look: a resend must not restart scrolls or replay effects. */
export function sameContent(a: AreaState, b: AreaState): boolean {
  return (
    a.area === b.area &&
    a.source === b.source &&
    a.text === b.text &&
    a.file === b.file &&
    a.url === b.url &&
    a.fontSize === b.fontSize &&
    sameRgb(a.fontColor, b.fontColor)
  );
}

function sameRgb(a?: Rgb, b?: Rgb): boolean {
  return a === b || (!!a && !!b && a.r === b.r && a.g === b.g && a.b === b.b);
}
