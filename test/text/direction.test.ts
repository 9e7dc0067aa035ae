import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { AreaConfig } from '../../src/config/types.js';
import type { Frame } from '../../src/output/types.js';
import { layLine } from '../../src/text/lines.js';
import { area, FONT_DIR, inkColumns, rig, T0 } from '../render/helpers.js';

const HEBREW = 'התחנה המרכזית ירושלים - רציף 3 - הרכבת הבאה יוצאת בעוד חמש דקות';
const F7 = path.join(FONT_DIR, '7x13.bdf');

/** Frame b equals frame a moved right by dx px over every pixel both show. */
function shiftedRight(a: Frame, b: Frame, dx: number): boolean {
  for (let y = 0; y < a.height; y++) {
    for (let x = dx; x < a.width; x++) {
      if (b.data[(y * a.width + x) * 4] !== a.data[(y * a.width + x - dx) * 4]) return false;
    }
  }
  return true;
}

function frames(p: Partial<AreaConfig>, text: string, times: number[]): Frame[] {
  const a = area({ id: 'a', width: 192, height: 16, fontSize: 13, scrollSpeed: 4, ...p });
  const r = rig([a], { width: 192, height: 16 });
  r.set(a, { text, setAt: T0 });
  return times.map((t) => r.compositor.render(T0 + t));
}

for (const [label, p] of [
  ['TrueType', {}],
  ['a BDF font', { font: F7 }],
] as const) {
  test(`${label}: a Hebrew text scrolls to the right, entering from the left, its beginning first`, () => {
    const [f0, f1, f2] = frames(p, HEBREW, [0, 500, 1000]);
    assert.equal(inkColumns(f0, 0, 192).length, 0, 'the area starts empty');
    const ink = inkColumns(f1, 0, 192);
    // 120 px/s: after 0.5 s the text has come 60 px in from the left edge.
    assert.ok(ink[0] < 5 && ink[ink.length - 1] >= 50 && ink[ink.length - 1] < 62, `ink ${ink[0]}..${ink.at(-1)}`);
    assert.ok(shiftedRight(f1, f2, 60), 'moved 60 px right in 0.5 s');
  });
}

test('scrollDirection "left" overrides: the Hebrew text then enters from the right', () => {
  const [, f1] = frames({ scrollDirection: 'left' }, HEBREW, [0, 500]);
  const ink = inkColumns(f1, 0, 192);
  assert.ok(ink[0] >= 130 && ink.at(-1)! > 185, `ink ${ink[0]}..${ink.at(-1)}`);
});

test('a right-to-left text that fits aligns right by default', () => {
  const [f] = frames({ font: F7 }, 'שלום', [0]);
  const ink = inkColumns(f, 0, 192);
  assert.ok(ink.at(-1)! >= 186, `ink ends at ${ink.at(-1)}`);
});

test('bidi in a bitmap font: numbers and Latin inside Hebrew keep their own order (UAX #9)', () => {
  const env = {
    font: F7,
    fonts: [],
    size: 13,
    crisp: false,
    color: { r: 1, g: 1, b: 1 },
    graphicSize: () => undefined,
    rtl: true,
  };
  const visual = (s: string) =>
    layLine({ spans: [{ text: s, font: 0 }] }, env)[0]
      .pieces.map((x) => ('text' in x ? x.text : ''))
      .join('');
  assert.equal(visual('אב 12'), '12 בא');
  assert.equal(visual('קו 175 ל-Airport'), 'Airport-ל 175 וק');
  // Mirrored brackets in right-to-left runs.
  assert.equal(visual('(אב)'), '(בא)');
});

test('Arabic joins in a TrueType font (pango shapes each right-to-left run in logical order)', () => {
  const ink = (text: string) => {
    const [f] = frames({ fontSize: 12 }, text, [0]);
    return inkColumns(f, 0, 192);
  };
  const joined = ink('سلام عليكم');
  // Zero-width non-joiners between the letters force their unjoined forms.
  const apart = ink('س\u200cل\u200cا\u200cم ع\u200cل\u200cي\u200cك\u200cم');
  assert.ok(joined.length > 10);
  assert.ok(apart.length > joined.length + 5, `unjoined letters take ${apart.length} columns, joined ${joined.length}`);
  // Right-aligned by default: the text ends at the right edge.
  assert.ok(joined.at(-1)! >= 185);
});

test('scrollDirection "up": a text that must scroll moves up instead of sideways', () => {
  const [f0, f1] = frames(
    { font: F7, scrollDirection: 'up', height: 13 },
    'Lotnisko Chopina - Airport, Terminal A, przez Centrum',
    [0, 500],
  );
  assert.equal(inkColumns(f0, 0, 192).length, 0, 'enters from the bottom');
  assert.ok(inkColumns(f1, 0, 192).length > 20, 'a line has come up into the area');
});

test('scroll-up breaks lines wider than the area even without wrap', () => {
  const [, f1, f2] = frames(
    { font: F7, overflow: 'scroll-up', height: 16 },
    'Lotnisko Chopina - Airport, Terminal A, przez Centrum',
    [0, 200, 2000],
  );
  for (const f of [f1, f2]) {
    const ink = inkColumns(f, 0, 192);
    if (ink.length) assert.ok(ink.at(-1)! < 191, 'no line runs past the right edge');
  }
  assert.ok(inkColumns(f2, 0, 192).length > 20);
});
