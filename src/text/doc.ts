// What a value says before it is laid out: pages of lines of styled spans.
import type { Rgb } from '../frame.js';

export type Align = 'left' | 'center' | 'right';

export type VAlign = 'top' | 'middle' | 'bottom';

export interface TextSpan {
  text: string;
  /** undefined: the area's fontColor. */
  color?: Rgb;
  /** 0: the area's font; n: the area's fonts[n - 1] ([fo<n>]). */
  font: number;
  /** [sc<n>]: pixels between one character's ink and the next, in place of the font's own spacing. */
  gap?: number;
}

/** An inline picture ([g<n>]): graphics[n - 1], standing on the baseline. */
export interface GraphicSpan {
  graphic: number;
}

export type Span = TextSpan | GraphicSpan;

/** One justification's share of a line ([jl2]..[jl4] on one line): its spans, in logical order. */
export interface DocPart {
  align?: Align;
  spans: Span[];
}

/**
 * `spans`: the whole line. `parts`: set when the line holds text under more than one
 * justification; each part is placed on its own (left at the left edge, centre in the middle,
 * right at the right edge), always in that order.
 */
export interface DocLine {
  spans: Span[];
  align?: Align;
  parts?: DocPart[];
}

export interface DocPage {
  lines: DocLine[];
  /** Page time in ms ([pt<on>o<off>]); undefined: the area's pageSeconds. */
  onMs?: number;
  offMs?: number;
  valign?: VAlign;
}

export interface Doc {
  pages: DocPage[];
  multi: boolean;
}

/** A value without markup: one page, a line per line feed. */
export function plainDoc(text: string): Doc {
  const lines = text.split(/\r\n|\n|\r/).map((t) => ({ spans: t ? [{ text: t, font: 0 }] : [] }));
  return { pages: [{ lines }], multi: false };
}

export const isGraphic = (s: Span): s is GraphicSpan => 'graphic' in s;
