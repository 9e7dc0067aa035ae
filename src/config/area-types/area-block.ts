// How an area's settings lay a value out (text/layout.ts's BlockOptions): the part the renderer
// (render/content/sign-text.ts) and the check that a MULTI value fits (multi-fit.ts) share, so a
// value refused as too big is one the renderer could not have shown, and one accepted fits.
import type { TextArea } from './normalized-area.js';
import type { BlockOptions } from '../../text/layout.js';
import { startsRtl } from '../../text/lines.js';

export type AreaBlock = Pick<
  BlockOptions,
  | 'width'
  | 'height'
  | 'font'
  | 'fonts'
  | 'fontSize'
  | 'minFontSize'
  | 'wrap'
  | 'lineSpacing'
  | 'valign'
  | 'align'
  | 'crisp'
  | 'rtl'
>;

/** `text` in area `a` at font size `size`; fit "shrink" goes down to minFontSize, by default half the size. */
export function areaBlock(a: TextArea, text: string, size: number): AreaBlock {
  return {
    width: a.width,
    height: a.height,
    font: a.font,
    fonts: a.fonts ?? [],
    fontSize: size,
    minFontSize: a.fit === 'shrink' ? (a.minFontSize ?? Math.max(1, Math.floor(size / 2))) : undefined,
    wrap: !!a.wrap,
    lineSpacing: a.lineSpacing,
    valign: a.valign ?? 'middle',
    align: a.align,
    crisp: a.antialias === 'none',
    rtl: startsRtl(text),
  };
}
