// Whether a MULTI value's pages fit their area, checked when the command arrives. A NTCIP 1203
// sign shows a page whole or refuses the message (the standard has no clipping, and moving
// text only through [mv], which mlds refuses), so a value with a page that fits neither at the
// area's size nor, when `fit` is "shrink", at any size down to minFontSize (nor wrapped, when
// `wrap` is on) is refused rather than clipped, paged or scrolled.
import type { TextArea } from './normalized-area.js';
import { MldsError } from '../../errors.js';
import type { Doc } from '../../text/doc.js';
import { layoutBlock, type BlockOptions, type Layout } from '../../text/layout.js';
import { pictureFileCheck } from '../../media/picture-header.js';
import { areaBlock } from './area-block.js';
import { docOf } from './markup.js';

/** Inline graphics the renderer draws (render/content/line-raster.ts) are at most this on a side. */
const MAX_GRAPHIC_SIDE = 2048;
const FITTING: ReadonlySet<Layout['fit']> = new Set(['as-is', 'shrunk', 'wrapped']);

const isTable = (a: TextArea): boolean => Array.isArray(a.columns) && a.columns.length > 0;

/** The layout the renderer makes of the value (render/content/sign-text.ts), as far as fitting goes. */
function options(a: TextArea, text: string, size: number): BlockOptions {
  return {
    ...areaBlock(a, text, size),
    overflow: 'pages',
    pageMs: 3000,
    color: a.fontColor,
    graphicSize: (n) => {
      const file = a.graphics?.[n - 1];
      const v = file ? pictureFileCheck(file, MAX_GRAPHIC_SIDE * MAX_GRAPHIC_SIDE) : undefined;
      return v && !('fault' in v) && v.width <= MAX_GRAPHIC_SIDE && v.height <= MAX_GRAPHIC_SIDE
        ? { width: v.width, height: v.height }
        : undefined;
    },
  };
}

/** Why a page laid out alone at the configured size does not fit: its widest line, or the height of its lines. */
function why(layout: Layout, a: TextArea): string {
  const lines = layout.pages.flatMap((p) => p.lines);
  const widest = Math.ceil(Math.max(0, ...lines.map((l) => l.width)));
  if (widest > a.width) return `a line is ${widest} px wide`;
  const tall = lines.reduce((h, l) => h + l.ascent + l.descent, 0) + layout.lineSpacing * Math.max(0, lines.length - 1);
  return `its ${lines.length} lines are ${tall} px tall`;
}

/** The layout, or undefined when it cannot be made (a font that does not load): the renderer shows that fault. */
function tryLayout(doc: Doc, o: BlockOptions): Layout | undefined {
  try {
    return layoutBlock(doc, o);
  } catch {
    return undefined;
  }
}

/** Why a MULTI value does not fit (its first page that does not), drawn at font size `size`; undefined when it fits. */
export function multiFitFault(a: TextArea, text: string, size: number): string | undefined {
  // A table (an area with `columns`) has rules of its own: a cell too wide is shortened and reported.
  if (a.markup !== 'multi' || isTable(a)) return undefined;
  let doc: Doc;
  // A faulty tag is reported where tags are checked (text.ts), not here.
  try {
    doc = docOf(a, text);
  } catch {
    return undefined;
  }
  const o = options(a, text, size);
  const whole = tryLayout(doc, o);
  if (!whole || FITTING.has(whole.fit)) return undefined;
  // Which page: the first that does not fit on its own (only on the way to a refusal).
  const pages = doc.pages.map((p): Doc => ({ pages: [p], multi: true }));
  const index = Math.max(
    0,
    pages.findIndex((d) => !FITTING.has(tryLayout(d, o)?.fit ?? 'as-is')),
  );
  const alone = tryLayout(pages[index], { ...o, minFontSize: undefined });
  const shrink = o.minFontSize !== undefined ? ` nor shrunk down to fontSize ${o.minFontSize}` : '';
  const detail = alone ? `: ${why(alone, a)}` : '';
  return (
    `page ${index + 1} of the MULTI text does not fit the area (${a.width}x${a.height} px) ` +
    `at fontSize ${size}${shrink}${o.wrap ? ' (wrapped)' : ''}${detail}`
  );
}

/**
 * Throws 400 MLDS_BAD_VALUE naming the area and the first page that cannot fit. `size`: the
 * font size the value is drawn at (the area's, or the command's fontSize[area]).
 */
export function checkMultiFit(a: TextArea, text: string, size: number): void {
  const fault = multiFitFault(a, text, size);
  if (fault) throw new MldsError('MLDS_BAD_VALUE', `"${a.id}": ${fault}`, a.id);
}
