import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { createCanvas, registerFont } from 'canvas';
import type { Frame } from '../../src/output/types.js';
import { area, rig, T0 } from '../render/helpers.js';
import { get } from '../helpers/service.js';
import { sign } from './sign-service.js';

const SYMBOLA = '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf';

/** The lit pixels (red above 128) of a rectangle, cropped to their bounding box, as rows of # and . */
function mask(get: (x: number, y: number) => number, w: number, h: number): string[] {
  const lit = (x: number, y: number) => get(x, y) > 128;
  let x0 = w,
    x1 = -1,
    y0 = h,
    y1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (lit(x, y)) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  const rows: string[] = [];
  for (let y = y0; y <= y1; y++) {
    let s = '';
    for (let x = x0; x <= x1; x++) s += lit(x, y) ? '#' : '.';
    rows.push(s);
  }
  return rows;
}

test(
  "🚌 is drawn from the symbol font in the text's colour, not as a box",
  { skip: !existsSync(SYMBOLA) && !process.env.CI && 'fonts-symbola is not installed' },
  () => {
    const a = area({
      id: 'a',
      width: 100,
      height: 48,
      fontSize: 40,
      antialias: 'none',
      fontColor: { r: 255, g: 170, b: 0 },
    });
    const r = rig([a], { width: 100, height: 48 });
    r.set(a, { text: '🚌', setAt: T0 });
    const f: Frame = r.compositor.render(T0);
    const colours = new Set<string>();
    for (let i = 0; i < f.data.length; i += 4) colours.add(`${f.data[i]},${f.data[i + 1]},${f.data[i + 2]}`);
    assert.deepEqual([...colours].sort(), ['0,0,0', '255,170,0']);
    const shown = mask((x, y) => f.data[(y * 100 + x) * 4], 100, 48);
    // The same character drawn by Symbola alone, hinted with no antialiasing and thresholded at one half as the area
    // does.
    registerFont(SYMBOLA, { family: 'symbola-only' });
    const c = createCanvas(100, 48).getContext('2d');
    c.antialias = 'none';
    c.font = '40px "symbola-only"';
    c.fillStyle = '#fff';
    c.fillText('🚌', 10, 38);
    const d = c.getImageData(0, 0, 100, 48).data;
    const expected = mask((x, y) => (d[(y * 100 + x) * 4 + 3] >= 128 ? 255 : 0), 100, 48);
    assert.ok(expected.length > 10);
    assert.deepEqual(shown, expected);
  },
);

test('a character no font has is a gap, reported once on /status and /info', async () => {
  const s = await sign({ t: { coordinates: '0 0 191 47', type: 'text', font: '7x13.bdf', fontColor: '255 170 0' } });
  try {
    // U+10FFFD (private use plane 16): no font has it.
    assert.equal((await s.show(`t=${encodeURIComponent('AB\u{10FFFD}\u{10FFFD}CD')}`)).status, 200);
    const p = await s.shot();
    const gapless = await (async () => {
      await s.show('t=AB%20%20CD');
      return s.shot();
    })();
    for (let y = 0; y < 48; y++)
      for (let x = 0; x < 192; x++)
        assert.deepEqual(p.at(x, y), gapless.at(x, y), `${x},${y}: the missing characters are blank like spaces`);
    await s.show(`t=${encodeURIComponent('AB\u{10FFFD}\u{10FFFD}CD')}`);
    const st = await get(s.svc, '/status');
    const t = (st.json.displays as Array<{ areas: Array<{ id: string; missingGlyphs?: string[] }> }>)[0].areas.find(
      (x) => x.id === 't',
    )!;
    assert.deepEqual(t.missingGlyphs, ['\u{10FFFD}']);
    const info = await get(s.svc, '/info');
    assert.match(info.text, /no font has \u{10FFFD} \(drawn as gaps\)/u);
  } finally {
    await s.close();
  }
});

test("a symbol borrowed for a BDF font leaves the font's rows where they were", () => {
  const F7 = new URL('../../fonts/7x13.bdf', import.meta.url).pathname;
  const rowsOf = (text: string) => {
    const a = area({
      id: 'a',
      width: 192,
      height: 48,
      font: F7,
      fontSize: 13,
      valign: 'top',
      fontColor: { r: 255, g: 170, b: 0 },
    });
    const r = rig([a], { width: 192, height: 48 });
    r.set(a, { text, setAt: T0 });
    const f = r.compositor.render(T0);
    const ys: number[] = [];
    for (let y = 0; y < 48; y++)
      for (let x = 0; x < 7; x++)
        if (f.data[(y * 192 + x) * 4] > 128) {
          ys.push(y);
          break;
        }
    return ys;
  };
  // The first glyph, H, is on the same rows with and without a bus after it.
  assert.deepEqual(rowsOf('H 🚌'), rowsOf('H'));
});
