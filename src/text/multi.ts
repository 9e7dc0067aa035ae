// The subset of NTCIP 1203 MULTI (Markup Language for Transportation Information) that
// mlds reads, tags case-insensitive:
//   [nl]            new line              [np]             new page
//   [pt<on>o<off>]  page on/off time, tenths of a second (either may be empty)
//   [jl2]..[jl4]    line left/centre/right   [jp2]..[jp4]  page top/middle/bottom
//   [cf<r>,<g>,<b>] foreground colour     [cf]             back to the area's colour
//   [fo<n>]         font n of `fonts`     [fo]             back to the area's font
//   [g<n>]          graphic n of `graphics`, inline on the baseline
//   [sc<n>] [/sc]   character spacing in pixels, and its end
//   [[  ]]          literal brackets
import type { Align, Doc, DocLine, DocPage, Span, TextSpan, VAlign } from './doc.js';

export class MultiError extends Error {
  constructor(readonly tag: string, readonly position: number, why: string) {
    super(`MULTI tag "${tag}" at character ${position}: ${why}`);
  }
}

export interface MultiLimits { fonts: number; graphics: number }

const JL: Record<string, Align> = { 2: 'left', 3: 'center', 4: 'right' };
const JP: Record<string, VAlign> = { 2: 'top', 3: 'middle', 4: 'bottom' };
const MAX_SPACING = 100;
const MAX_TENTHS = 36000;

export function parseMulti(src: string, limits: MultiLimits): Doc {
  const pages: DocPage[] = [];
  let page: DocPage = { lines: [] };
  let line: DocLine = { spans: [] };
  let style: Omit<TextSpan, 'text'> = { font: 0, spacing: 0 };
  let align: Align | undefined;
  let text = '';
  const flush = () => { if (text) line.spans.push({ text, ...style } as Span); text = ''; };
  const endLine = () => { flush(); line.align = align; page.lines.push(line); line = { spans: [] }; };
  const endPage = () => { endLine(); pages.push(page); page = { lines: [] }; };

  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === ']') {
      if (src[i + 1] !== ']') throw new MultiError(']', i + 1, 'a closing bracket without a tag (write "]]" for a literal one)');
      text += ']'; i++; continue;
    }
    if (ch !== '[') { text += ch === '\n' ? '' : ch; if (ch === '\n') endLine(); continue; }
    if (src[i + 1] === '[') { text += '['; i++; continue; }
    const close = src.indexOf(']', i);
    const tag = close < 0 ? src.slice(i, i + 12) : src.slice(i, close + 1);
    if (close < 0) throw new MultiError(tag, i + 1, 'no closing bracket');
    const body = src.slice(i + 1, close).toLowerCase();
    const bad = (why: string): never => { throw new MultiError(tag, i + 1, why); };
    let m: RegExpMatchArray | null;
    if (body === 'nl') endLine();
    else if (body === 'np') endPage();
    else if ((m = body.match(/^pt(\d*)o(\d*)$/))) {
      const on = m[1] === '' ? undefined : Number(m[1]);
      const off = m[2] === '' ? undefined : Number(m[2]);
      if ((on ?? 0) > MAX_TENTHS || (off ?? 0) > MAX_TENTHS) bad(`page times are at most ${MAX_TENTHS} tenths of a second`);
      if (on === 0) bad('a page shown for 0 s would never show');
      if (on !== undefined) page.onMs = on * 100;
      if (off !== undefined) page.offMs = off * 100;
    } else if ((m = body.match(/^jl(\d)$/))) {
      align = JL[m[1]] ?? bad('line justification must be 2 (left), 3 (centre) or 4 (right)');
      line.align = align;
    } else if ((m = body.match(/^jp(\d)$/))) {
      page.valign = JP[m[1]] ?? bad('page justification must be 2 (top), 3 (middle) or 4 (bottom)');
    } else if (body === 'cf') { flush(); style = { ...style, color: undefined }; }
    else if ((m = body.match(/^cf(\d{1,3}),(\d{1,3}),(\d{1,3})$/))) {
      const [r, g, b] = [m[1], m[2], m[3]].map(Number);
      if (r > 255 || g > 255 || b > 255) bad('colour parts are 0..255');
      flush(); style = { ...style, color: { r, g, b } };
    } else if (body === 'fo') { flush(); style = { ...style, font: 0 }; }
    else if ((m = body.match(/^fo(\d{1,3})$/))) {
      const n = Number(m[1]);
      if (n < 1 || n > limits.fonts) bad(limits.fonts ? `the area's fonts list has ${limits.fonts} font(s)` : 'the area has no fonts list');
      flush(); style = { ...style, font: n };
    } else if ((m = body.match(/^g(\d{1,3})$/))) {
      const n = Number(m[1]);
      if (n < 1 || n > limits.graphics) bad(limits.graphics ? `the area's graphics list has ${limits.graphics} file(s)` : 'the area has no graphics list');
      flush(); line.spans.push({ graphic: n });
    } else if ((m = body.match(/^sc(\d{1,3})$/))) {
      const n = Number(m[1]);
      if (n > MAX_SPACING) bad(`character spacing is at most ${MAX_SPACING} px`);
      flush(); style = { ...style, spacing: n };
    } else if (body === '/sc') { flush(); style = { ...style, spacing: 0 }; }
    else bad('not in the supported MULTI subset (nl, np, pt, jl, jp, cf, fo, g, sc, /sc)');
    i = close;
  }
  endPage();
  return { pages, multi: true };
}
