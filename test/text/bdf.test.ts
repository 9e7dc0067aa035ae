import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import path from 'node:path';
import { loadBdf, parseBdf } from '../../src/text/bdf.js';
import { REPO } from '../helpers/service.js';
import { colours, sign, type Sign } from './sign-service.js';

const FONT = path.join(REPO, 'fonts/7x13.bdf');

test('the BDF reader reads boxes, offsets and bits as the file says', () => {
  const f = parseBdf(['STARTFONT 2.1', 'FONTBOUNDINGBOX 3 4 0 -1', 'STARTPROPERTIES 2', 'FONT_ASCENT 3', 'FONT_DESCENT 1', 'ENDPROPERTIES', 'CHARS 1',
    'STARTCHAR x', 'ENCODING 120', 'DWIDTH 4 0', 'BBX 3 2 1 -1', 'BITMAP', 'A0', '40', 'ENDCHAR', 'ENDFONT'].join('\n'));
  assert.equal(f.pixelSize, 4);
  const g = f.glyphs.get(120)!;
  assert.deepEqual({ dwidth: g.dwidth, w: g.w, h: g.h, xoff: g.xoff, yoff: g.yoff }, { dwidth: 4, w: 3, h: 2, xoff: 1, yoff: -1 });
  assert.deepEqual([...g.bits], [1, 0, 1, 0, 1, 0]);
  assert.throws(() => parseBdf('STARTFONT 2.1\nSTARTCHAR a\nENCODING 97\nBBX 2 1 0 0\nBITMAP\nZZ\nENDCHAR\n'), /not 2 bits of hex/);
  assert.throws(() => parseBdf('hello'), /not a BDF/);
});

test('the shipped pixel fonts load with their sizes', () => {
  for (const [name, px] of [['5x7', 7], ['6x10', 10], ['7x13', 13]] as const) {
    const f = loadBdf(path.join(REPO, 'fonts', `${name}.bdf`));
    assert.equal(f.pixelSize, px);
    assert.ok(f.glyphs.size > 1000, `${name}: ${f.glyphs.size} glyphs`);
  }
});

/** Where the glyph of `ch` lands for a left-aligned, middle-valigned line in an area at (ax, ay) of height h. */
function expectGlyph(p: { at(x: number, y: number): [number, number, number] }, ch: string, ax: number, ay: number, h: number, scale: number): number {
  const f = loadBdf(FONT);
  const g = f.glyphs.get(ch.codePointAt(0)!)!;
  const top = ay + Math.round((h - f.pixelSize * scale) / 2);
  const baseline = top + f.ascent * scale;
  let lit = 0;
  // The whole advance box: every pixel is lit exactly where the bitmap says.
  for (let y = top; y < top + f.pixelSize * scale; y++) {
    for (let x = ax; x < ax + g.dwidth * scale; x++) {
      const c = Math.floor((x - ax) / scale) - g.xoff;
      const r = Math.floor((y - (baseline - (g.yoff + g.h) * scale)) / scale);
      const on = c >= 0 && c < g.w && r >= 0 && r < g.h && g.bits[r * g.w + c] === 1;
      assert.deepEqual(p.at(x, y), on ? [255, 170, 0] : [0, 0, 0], `"${ch}" x${scale} at ${x},${y}`);
      if (on) lit++;
    }
  }
  return lit;
}

let s: Sign;
before(async () => {
  s = await sign({
    one: { coordinates: '0 0 191 19', type: 'text', font: '7x13.bdf', fontColor: '255 170 0' },
    two: { coordinates: '0 20 191 47', type: 'text', font: '7x13.bdf', fontSize: '26', fontColor: '255 170 0' },
  });
});
after(async () => { await s?.close(); });

test('a BDF glyph is drawn bit for bit at its place, and at twice its size as 2x2 blocks', async () => {
  assert.equal((await s.show('one=A&two=g')).status, 200);
  const p = await s.shot();
  assert.ok(expectGlyph(p, 'A', 0, 0, 20, 1) > 10);
  assert.ok(expectGlyph(p, 'g', 0, 20, 28, 2) > 40);
  // Pixel font areas hold exactly two colours.
  assert.deepEqual([...colours(p, 0, 0, 192, 48)].sort(), ['0,0,0', '255,170,0']);
});

test('a fontSize that is not a multiple of the pixel size is a fault naming the sizes that work', async () => {
  await assert.rejects(sign({ x: { coordinates: '0 0 191 47', type: 'text', font: '7x13.bdf', fontSize: '20' } }), (err: Error) => {
    assert.match(JSON.stringify(err), /fontSize[^]*20 does not suit the bitmap font 7x13\.bdf[^]*13, 26, 39/);
    return true;
  });
});
