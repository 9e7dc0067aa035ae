import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMulti, type MultiLimits } from '../../src/text/multi.js';
import type { DocLine, Span } from '../../src/text/doc.js';

const LIMITS: MultiLimits = { fonts: 1, graphics: 1 };
const words = (spans: Span[]) => spans.map((s) => ('text' in s ? s.text : `g${s.graphic}`)).join('|');
const parts = (l: DocLine) => l.parts?.map((p) => `${p.align ?? '-'}:${words(p.spans)}`);

test('[jl2]..[jl4] on one line make its left, centre and right parts', () => {
  const doc = parseMulti('[jl2]12 Hauptbahnhof[jl4]7 min[nl][jl2]S1 Flughafen[jl3]Gleis 2[jl4][g1]now[nl]next', LIMITS);
  const [a, b, c] = doc.pages[0].lines;
  assert.deepEqual(parts(a), ['left:12 Hauptbahnhof', 'right:7 min']);
  assert.equal(words(a.spans), '12 Hauptbahnhof|7 min', 'the line keeps all its spans');
  assert.equal(a.align, undefined, 'a line of parts has no one alignment');
  assert.deepEqual(parts(b), ['left:S1 Flughafen', 'center:Gleis 2', 'right:g1|now']);
  // Justification holds until the next [jl]: the third line is right-aligned, in one part.
  assert.deepEqual([c.parts, c.align, words(c.spans)], [undefined, 'right', 'next']);
});

test("text before the first [jl] takes the area's alignment; the same [jl] again continues its part", () => {
  const doc = parseMulti('Linie 4[jl4]Ost[nl][jl2]A[jl2]B[g1][jl4]C', { ...LIMITS, align: 'left' });
  const [a, b] = doc.pages[0].lines;
  assert.deepEqual(parts(a), ['-:Linie 4', 'right:Ost']);
  assert.deepEqual(parts(b), ['left:A|B|g1', 'right:C']);
  // A centred area: text before [jl3] is centred already, so it is one part.
  const [c] = parseMulti('Gleis[jl3] 2', { ...LIMITS, align: 'center' }).pages[0].lines;
  assert.deepEqual([c.parts, c.align, words(c.spans)], [undefined, 'center', 'Gleis| 2']);
});

test('parts out of order name the tag: centre or left after right, left after centre', () => {
  for (const [src, tag, pos] of [
    ['[jl4]7 min[jl2]12 Hauptbahnhof', '[jl2]', 11],
    ['[jl3]Gleis 2[jl2]S1', '[jl2]', 13],
    ['[jl4]a[jl3]b', '[jl3]', 7],
    // The area's own alignment counts: a centred area's text, then [jl2].
    ['Mitte[jl2]links', '[jl2]', 6],
  ] as const) {
    const limits = { ...LIMITS, align: src.startsWith('Mitte') ? ('center' as const) : ('left' as const) };
    assert.throws(
      () => parseMulti(src, limits),
      (e: Error) =>
        e.message.startsWith(`MULTI tag "${tag}" at character ${pos}: a line's parts come left, centre, right`),
      src,
    );
  }
  // A [jl] with no text yet on its line changes nothing already written: no conflict.
  assert.doesNotThrow(() => parseMulti('[jl4]right[nl][jl2]left[jl4]right', LIMITS));
  assert.doesNotThrow(() => parseMulti('a[jl4][jl2]b', LIMITS), 'an empty part is no part');
});

test("[jl5] (full) and [jl1] (other) are refused; [jl] and [jp] go back to the area's", () => {
  assert.throws(
    () => parseMulti('a[jl5]b', LIMITS),
    /MULTI tag "\[jl5\]" at character 2: full justification \(\[jl5\]\) is not supported/,
  );
  assert.throws(() => parseMulti('[jl1]b', LIMITS), /MULTI tag "\[jl1\]" at character 1: line justification must be 2/);
  const doc = parseMulti('[jl4]r[nl][jl]d[jp4][np]x[np][jp]y', LIMITS);
  assert.deepEqual(
    doc.pages[0].lines.map((l) => l.align),
    ['right', undefined],
  );
  assert.deepEqual(
    doc.pages.map((p) => p.valign),
    ['bottom', 'bottom', undefined],
    '[jp] holds for the pages after it until the next',
  );
});

test("[pt] applies to its page and the pages after it until the next [pt]; an empty time is the area's", () => {
  const doc = parseMulti('A[np][pt30o5]B[np]C[np][pt20]D[np]E[np][pt]F[np][pto10]G', LIMITS);
  assert.deepEqual(
    doc.pages.map((p) => [p.onMs, p.offMs]),
    [
      [undefined, undefined],
      [3000, 500],
      [3000, 500],
      [2000, undefined],
      [2000, undefined],
      [undefined, undefined],
      [undefined, 1000],
    ],
  );
  // A [pt] anywhere on a page is that page's.
  assert.deepEqual(parseMulti('A[nl]B[pt15o0]', LIMITS).pages[0].onMs, 1500);
  assert.throws(() => parseMulti('[pt0]', LIMITS), /would never show/);
});

test("[sc<n>] sets the gap between characters and [/sc] ends it; the font's own spacing stays otherwise", () => {
  const [a] = parseMulti('A[sc3]BC[/sc]D[sc0]E', LIMITS).pages[0].lines;
  assert.deepEqual(
    a.spans.map((s) => ('text' in s ? [s.text, s.gap] : [])),
    [
      ['A', undefined],
      ['BC', 3],
      ['D', undefined],
      ['E', 0],
    ],
  );
  assert.throws(() => parseMulti('[sc101]x', LIMITS), /at most 100 px/);
});
