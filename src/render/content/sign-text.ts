import type { Rgb, TextArea } from '../../config/types.js';
import { isBitmapFontFile } from '../../text/bdf.js';
import { faceFor, measure } from '../../text/faces.js';
import { layoutBlock } from '../../text/layout.js';
import { hasMissing, startsRtl } from '../../text/lines.js';
import { areaBlock } from '../../config/area-types/area-block.js';
import { docOf } from '../../config/area-types/markup.js';
import { scrollingOf } from '../../config/area-types/text-look.js';
import { BlockContent, type ScrollDirection } from './block.js';
import { cycleOrigin } from './page-clock.js';
import { graphicImage } from './line-raster.js';

/** Whether the area needs the sign-text layout, or is drawn as one line of TrueType as before. */
export function needsLayout(a: TextArea, text: string): boolean {
  return (
    (!!a.font && isBitmapFontFile(a.font)) ||
    a.antialias === 'none' ||
    !!a.wrap ||
    a.lineSpacing !== undefined ||
    a.valign !== undefined ||
    (a.overflow ?? 'scroll') !== 'scroll' ||
    a.fit === 'shrink' ||
    a.markup === 'multi' ||
    a.scrollDirection !== undefined ||
    !!a.columns ||
    /[\n\r]/.test(text) ||
    startsRtl(text) ||
    hasMissing(text, a.font)
  );
}

export interface SignTextInput {
  area: TextArea;
  text: string;
  size: number;
  color: Rgb;
  pxPerSecond: number;
  /** When the content enters; its cycle counts from here or from the epoch (cycleOrigin). */
  origin: number;
  /** Pixels per move (scrollStep); 1 when omitted. */
  step?: number;
}

export function signTextContent(i: SignTextInput): BlockContent {
  const a = i.area;
  const block = areaBlock(a, i.text, i.size);
  const rtl = block.rtl;
  const graphicFile = (n: number) => a.graphics?.[n - 1];
  const layout = layoutBlock(docOf(a, i.text), {
    ...block,
    // scrollDirection "up" makes a text that must scroll move up rather than sideways.
    overflow:
      a.scrollDirection === 'up' && (a.overflow ?? 'scroll') === 'scroll' ? 'scroll-up' : (a.overflow ?? 'scroll'),
    pageMs: (a.pageSeconds ?? 3) * 1000,
    color: i.color,
    columns: a.columns,
    graphicSize: (n) => {
      const f = graphicFile(n);
      const img = f ? graphicImage(f) : undefined;
      return img && { width: img.width, height: img.height };
    },
  });
  const base = faceFor(layout.font, layout.size, a.antialias === 'none');
  const direction: ScrollDirection = a.scrollDirection ?? (layout.mode === 'scroll-up' ? 'up' : rtl ? 'right' : 'left');
  // Right-to-left text reads from the right: it aligns there unless the area says otherwise.
  const align = rtl && a.align === 'left' ? 'right' : a.align;
  const { headToTail } = scrollingOf(a);
  return new BlockContent({
    layout,
    width: a.width,
    height: a.height,
    align,
    pxPerSecond: i.pxPerSecond,
    gapPx: headToTail > 0 ? measure(base, ' '.repeat(headToTail)) : 0,
    origin: cycleOrigin(a.sync, layout.mode, i.origin),
    step: i.step ?? 1,
    direction,
    graphicFile,
  });
}
