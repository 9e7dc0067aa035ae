// What a value says aloud, read as the sign shows it: MULTI tags are not read out, a new line
// or a tab (a departures board's cell) becomes a short pause (a comma), a new page a longer
// one (a full stop), so espeak-ng phrases it as a passenger reads it.
import { parseMulti } from '../text/multi.js';
import { isGraphic, plainDoc, type Doc } from '../text/doc.js';

/** Longest text spoken as one announcement (about 40 s of speech at 160 words a minute). */
export const MAX_SPOKEN = 500;

/** MULTI's limits do not matter here: the configuration has checked the tags the area takes. */
const ANY = { fonts: 1000, graphics: 1000 };

const pieces = (line: string) =>
  line
    .split('\t')
    .map((t) => t.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

/** Joins phrases with `mark` unless a phrase already ends in punctuation. */
function join(parts: string[], mark: string): string {
  let out = '';
  for (const p of parts) {
    if (!p) continue;
    out = out ? `${out}${/[.,;:!?]$/.test(out) ? '' : mark} ${p}` : p;
  }
  return out;
}

function docOf(text: string, multi: boolean): Doc {
  if (!multi) return plainDoc(text);
  try {
    return parseMulti(text, ANY);
  } catch {
    // Refused markup never reaches a sign; should one still come here, its tags are not read out.
    return plainDoc(text.replace(/\[[^\]]*\]/g, ' '));
  }
}

/** The words of `text` with its pauses; '' when nothing is left to say. */
export function spokenText(text: string, multi = false): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
  const doc = docOf(clean, multi);
  return join(
    doc.pages.map((page) =>
      join(
        page.lines.flatMap((l) => {
          const said = l.spans.map((s) => (isGraphic(s) ? ' ' : s.text)).join('');
          return [join(pieces(said), ',')];
        }),
        ',',
      ),
    ),
    '.',
  );
}

/**
 * `words` cut to MAX_SPOKEN at the end of its last whole sentence that fits, else of its last
 * whole word: what a machine source says (an alert's instruction, a sign's long text) is read
 * as far as one announcement goes rather than not at all.
 */
export function fitted(words: string): string {
  if (words.length <= MAX_SPOKEN) return words;
  const head = words.slice(0, MAX_SPOKEN + 1);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (sentence >= MAX_SPOKEN / 2) return head.slice(0, sentence + 1);
  const space = head.lastIndexOf(' ');
  return (space > 0 ? head.slice(0, space) : head.slice(0, MAX_SPOKEN)).replace(/[\s,;:]+$/, '');
}
