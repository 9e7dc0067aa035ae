// Words from outside (a CAP alert's fields, a feed's message) made a value the area they go to
// takes as plain words, so nothing in them is read as the area's own syntax: a tab is a cell
// break only where a table's columns are (text.ts), and a bracket starts a MULTI tag in a
// `markup: "multi"` area (markup.ts). Such text never carries markup of its own.
import type { AreaConfig } from './normalized-area.js';

// Control characters other than the line feed (which starts a line, as in any value).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f]/g;

/**
 * `text` as plain words in `area`: control characters (a tab too) as spaces, and in a MULTI
 * area each bracket doubled (a literal one).
 */
export function plainWordsFor(area: AreaConfig | undefined, text: string): string {
  const plain = text.replace(CONTROLS, ' ');
  return area && 'markup' in area && area.markup === 'multi' ? plain.replace(/\[/g, '[[').replace(/\]/g, ']]') : plain;
}
