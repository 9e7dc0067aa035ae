// The document a value makes under its area's `markup`: MULTI tags parsed, or plain lines.
import type { NormalizedFields } from './normalized-area.js';
import { plainDoc, type Doc } from '../../text/doc.js';
import { parseMulti } from '../../text/multi.js';

/** Throws MultiError (src/text/multi.ts) for a tag outside the subset or a malformed one. */
export function docOf(a: Pick<NormalizedFields, 'markup' | 'fonts' | 'graphics' | 'align'>, text: string): Doc {
  return a.markup === 'multi'
    ? parseMulti(text, { fonts: a.fonts?.length ?? 0, graphics: a.graphics?.length ?? 0, align: a.align })
    : plainDoc(text);
}
