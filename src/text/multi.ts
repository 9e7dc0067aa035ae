// The subset of NTCIP 1203 MULTI (Markup Language for Transportation Information) that
// mlds reads, tags case-insensitive. A tag holds from where it stands until the next one of
// its kind, across lines and pages (as the standard's render state does):
//   [nl]            new line              [np]             new page
//   [pt<on>o<off>]  page on/off time, tenths of a second (either may be empty: the area's)
//   [jl2]..[jl4]    line left/centre/right; several on one line place its left, centre and
//                   right parts, which must come in that order   [jl]  the area's alignment
//   [jp2]..[jp4]    page top/middle/bottom  [jp]  the area's
//   [cf<r>,<g>,<b>] foreground colour     [cf]             back to the area's colour
//   [fo<n>]         font n of `fonts`     [fo]             back to the area's font
//   [g<n>]          graphic n of `graphics`, inline on the baseline
//   [sc<n>] [/sc]   n pixels between characters (in place of the font's own spacing), and its end
//   [[  ]]          literal brackets
import type { Align, Doc, DocLine, DocPage, Span, TextSpan, VAlign } from './doc.js';

export class MultiError extends Error {
  constructor(
    readonly tag: string,
    readonly position: number,
    why: string,
  ) {
    super(`MULTI tag "${tag}" at character ${position}: ${why}`);
  }
}

export interface MultiLimits {
  fonts: number;
  graphics: number;
  /** The area's alignment, which text before any [jl] (or after [jl]) takes; 'left' when undefined. */
  align?: Align;
}

const JL: Record<string, Align> = { 2: 'left', 3: 'center', 4: 'right' };
const JP: Record<string, VAlign> = { 2: 'top', 3: 'middle', 4: 'bottom' };
const RANK: Record<Align, number> = { left: 0, center: 1, right: 2 };
const NAME: Record<Align, string> = { left: 'left', center: 'centre', right: 'right' };
const MAX_SPACING = 100;
const MAX_TENTHS = 36000;

/** A line being read: its spans, and where each justification's part of them starts. */
class LineBuilder {
  line: DocLine = { spans: [] };
  /** Parts closed so far on this line: their alignment and first span. */
  private closed: Array<{ align?: Align; from: number }> = [];
  private from = 0;

  constructor(
    private align: Align | undefined,
    private readonly base: Align,
  ) {}

  /** [jl]: text after it takes `align`; throws the reason when that would go back along the line. */
  justify(align: Align | undefined): string | undefined {
    if (this.line.spans.length > this.from) {
      const was = this.align ?? this.base,
        now = align ?? this.base;
      if (RANK[now] < RANK[was])
        return `a line's parts come left, centre, right: ${NAME[now]} text cannot follow ${NAME[was]} text on one line`;
      if (now !== was) {
        this.closed.push({ align: this.align, from: this.from });
        this.from = this.line.spans.length;
      }
    }
    this.align = align;
    return undefined;
  }

  /** The line as read, and the alignment the next line starts with. */
  end(): { line: DocLine; align: Align | undefined } {
    const { line } = this;
    const parts = [
      ...this.closed,
      ...(line.spans.length > this.from || !this.closed.length ? [{ align: this.align, from: this.from }] : []),
    ];
    if (parts.length > 1)
      line.parts = parts.map((p, k) => ({
        align: p.align,
        spans: line.spans.slice(p.from, parts[k + 1]?.from ?? line.spans.length),
      }));
    line.align = parts.length > 1 ? undefined : parts[0].align;
    return { line, align: this.align };
  }
}

export function parseMulti(src: string, limits: MultiLimits): Doc {
  const base = limits.align ?? 'left';
  const pages: DocPage[] = [];
  // Page times and page justification hold from their page on, until the next such tag.
  let onMs: number | undefined, offMs: number | undefined, valign: VAlign | undefined;
  const newPage = (): DocPage => ({
    lines: [],
    ...(onMs !== undefined ? { onMs } : {}),
    ...(offMs !== undefined ? { offMs } : {}),
    ...(valign ? { valign } : {}),
  });
  let page = newPage();
  let lb = new LineBuilder(undefined, base);
  let style: Omit<TextSpan, 'text'> = { font: 0 };
  let text = '';
  const flush = () => {
    if (text) lb.line.spans.push({ text, ...style } as Span);
    text = '';
  };
  const endLine = () => {
    flush();
    const { line, align } = lb.end();
    page.lines.push(line);
    lb = new LineBuilder(align, base);
  };
  const endPage = () => {
    endLine();
    pages.push(page);
    page = newPage();
  };

  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === ']') {
      if (src[i + 1] !== ']')
        throw new MultiError(']', i + 1, 'a closing bracket without a tag (write "]]" for a literal one)');
      text += ']';
      i++;
      continue;
    }
    if (ch !== '[') {
      text += ch === '\n' ? '' : ch;
      if (ch === '\n') endLine();
      continue;
    }
    if (src[i + 1] === '[') {
      text += '[';
      i++;
      continue;
    }
    const close = src.indexOf(']', i);
    const tag = close < 0 ? src.slice(i, i + 12) : src.slice(i, close + 1);
    if (close < 0) throw new MultiError(tag, i + 1, 'no closing bracket');
    const body = src.slice(i + 1, close).toLowerCase();
    const bad = (why: string): never => {
      throw new MultiError(tag, i + 1, why);
    };
    let m: RegExpMatchArray | null;
    if (body === 'nl') endLine();
    else if (body === 'np') endPage();
    else if ((m = body.match(/^pt(\d*)(?:o(\d*))?$/))) {
      const on = m[1] === '' ? undefined : Number(m[1]);
      const off = m[2] === undefined || m[2] === '' ? undefined : Number(m[2]);
      if ((on ?? 0) > MAX_TENTHS || (off ?? 0) > MAX_TENTHS)
        bad(`page times are at most ${MAX_TENTHS} tenths of a second`);
      if (on === 0) bad('a page shown for 0 s would never show');
      onMs = on === undefined ? undefined : on * 100;
      offMs = off === undefined ? undefined : off * 100;
      page.onMs = onMs;
      page.offMs = offMs;
    } else if ((m = body.match(/^jl(\d?)$/))) {
      if (m[1] === '5') bad('full justification ([jl5]) is not supported: use [jl2], [jl3] or [jl4]');
      const align =
        m[1] === '' ? undefined : (JL[m[1]] ?? bad('line justification must be 2 (left), 3 (centre) or 4 (right)'));
      flush();
      const wrong = lb.justify(align);
      if (wrong) bad(wrong);
    } else if ((m = body.match(/^jp(\d?)$/))) {
      valign =
        m[1] === '' ? undefined : (JP[m[1]] ?? bad('page justification must be 2 (top), 3 (middle) or 4 (bottom)'));
      page.valign = valign;
    } else if (body === 'cf') {
      flush();
      style = { ...style, color: undefined };
    } else if ((m = body.match(/^cf(\d{1,3}),(\d{1,3}),(\d{1,3})$/))) {
      const [r, g, b] = [m[1], m[2], m[3]].map(Number);
      if (r > 255 || g > 255 || b > 255) bad('colour parts are 0..255');
      flush();
      style = { ...style, color: { r, g, b } };
    } else if (body === 'fo') {
      flush();
      style = { ...style, font: 0 };
    } else if ((m = body.match(/^fo(\d{1,3})$/))) {
      const n = Number(m[1]);
      if (n < 1 || n > limits.fonts)
        bad(limits.fonts ? `the area's fonts list has ${limits.fonts} font(s)` : 'the area has no fonts list');
      flush();
      style = { ...style, font: n };
    } else if ((m = body.match(/^g(\d{1,3})$/))) {
      const n = Number(m[1]);
      if (n < 1 || n > limits.graphics)
        bad(
          limits.graphics ? `the area's graphics list has ${limits.graphics} file(s)` : 'the area has no graphics list',
        );
      flush();
      lb.line.spans.push({ graphic: n });
    } else if ((m = body.match(/^sc(\d{1,3})$/))) {
      const n = Number(m[1]);
      if (n > MAX_SPACING) bad(`character spacing is at most ${MAX_SPACING} px`);
      flush();
      style = { ...style, gap: n };
    } else if (body === '/sc') {
      flush();
      style = { ...style };
      delete style.gap;
    } else bad('not in the supported MULTI subset (nl, np, pt, jl, jp, cf, fo, g, sc, /sc)');
    i = close;
  }
  endPage();
  return { pages, multi: true };
}
