// The height of a capital letter of a face, in pixels: what a legibility rule measures (the
// uppercase "I" of the ADA's and the VMS tables), not the font size, which counts the
// accents above and the descenders below as well.
import { createCanvas } from 'canvas';
import type { Face } from './faces.js';

const ctx = createCanvas(1, 1).getContext('2d');

/** Whole pixels from the baseline to the top of "H" (of "I" where the font has no "H"); 0 when it has neither. */
export function capHeightPx(face: Face): number {
  if (face.kind === 'bitmap') {
    const g = face.font.glyphs.get(0x48) ?? face.font.glyphs.get(0x49);
    return g ? Math.max(0, g.h + g.yoff) * face.scale : 0;
  }
  ctx.font = face.css;
  return Math.round(ctx.measureText('H').actualBoundingBoxAscent);
}
