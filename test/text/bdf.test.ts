import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BdfError, loadBdf, parseBdf, type BdfGlyph } from '../../src/text/bdf.js';
import { bitmapFace, measure } from '../../src/text/faces.js';
import { REPO } from '../helpers/service.js';
import { colours, sign, type Sign } from './sign-service.js';

const FONT = path.join(REPO, 'fonts/7x13.bdf');

test('the BDF reader reads boxes, offsets and bits as the file says', () => {
  const f = parseBdf(
    [
      'STARTFONT 2.1',
      'FONTBOUNDINGBOX 3 4 0 -1',
      'STARTPROPERTIES 2',
      'FONT_ASCENT 3',
      'FONT_DESCENT 1',
      'ENDPROPERTIES',
      'CHARS 1',
      'STARTCHAR x',
      'ENCODING 120',
      'DWIDTH 4 0',
      'BBX 3 2 1 -1',
      'BITMAP',
      'A0',
      '40',
      'ENDCHAR',
      'ENDFONT',
    ].join('\n'),
  );
  assert.equal(f.pixelSize, 4);
  const g = f.glyphs.get(120)!;
  assert.deepEqual(
    { dwidth: g.dwidth, w: g.w, h: g.h, xoff: g.xoff, yoff: g.yoff },
    { dwidth: 4, w: 3, h: 2, xoff: 1, yoff: -1 },
  );
  assert.deepEqual([...g.bits], [1, 0, 1, 0, 1, 0]);
  assert.throws(
    () => parseBdf('STARTFONT 2.1\nSTARTCHAR a\nENCODING 97\nBBX 2 1 0 0\nBITMAP\nZZ\nENDCHAR\n'),
    /not 2 bits of hex/,
  );
  assert.throws(() => parseBdf('hello'), /not a BDF/);
});

test('the shipped pixel fonts load with their sizes', () => {
  for (const [name, px] of [
    ['5x7', 7],
    ['6x10', 10],
    ['7x13', 13],
  ] as const) {
    const f = loadBdf(path.join(REPO, 'fonts', `${name}.bdf`));
    assert.equal(f.pixelSize, px);
    assert.ok(f.glyphs.size > 1000, `${name}: ${f.glyphs.size} glyphs`);
  }
});

const fontText = (name: string): string => readFileSync(path.join(REPO, 'fonts', `${name}.bdf`), 'latin1');

/** A plain eager reader to hold the lazy one against: every line split, every glyph decoded. */
function referenceGlyphs(text: string): Map<number, BdfGlyph> {
  const out = new Map<number, BdfGlyph>();
  const lines = text.split('\n').map((l) => l.trim());
  let box = [0, 0, 0, 0],
    enc = -1,
    dwidth = 0,
    bbx: number[] | undefined;
  lines.forEach((l, i) => {
    const [key, ...nums] = l.split(/\s+/);
    if (key === 'FONTBOUNDINGBOX') box = nums.map(Number);
    else if (key === 'STARTCHAR') {
      enc = -1;
      dwidth = 0;
      bbx = undefined;
    } else if (key === 'ENCODING') enc = Number(nums[0]);
    else if (key === 'DWIDTH') dwidth = Number(nums[0]);
    else if (key === 'BBX') bbx = nums.map(Number);
    else if (key === 'BITMAP' && enc >= 0) {
      const [w, h, xoff, yoff] = bbx ?? box;
      const rows = lines
        .slice(i + 1, i + 1 + h)
        .map((row) =>
          [...row].flatMap((hex) => [...parseInt(hex, 16).toString(2).padStart(4, '0')].map(Number)).slice(0, w),
        );
      out.set(enc, { dwidth, w, h, xoff, yoff, bits: Uint8Array.from(rows.flat()) });
    }
  });
  return out;
}

function sameAsReference(text: string, what: string): void {
  const ref = referenceGlyphs(text);
  const f = parseBdf(text);
  assert.equal(f.glyphs.size, ref.size, what);
  for (const [cp, g] of ref) {
    assert.equal(f.glyphs.dwidth(cp), g.dwidth, `${what} U+${cp.toString(16)} dwidth`);
    const lazy = f.glyphs.get(cp);
    assert.ok(lazy, `${what} U+${cp.toString(16)}`);
    assert.deepEqual({ ...lazy, bits: [...lazy.bits] }, { ...g, bits: [...g.bits] }, `${what} U+${cp.toString(16)}`);
  }
  assert.equal(f.glyphs.decoded, ref.size);
}

test('every glyph of the shipped fonts decodes on use to what an eager reading of the file says', () => {
  for (const name of ['6x10', '7x13']) {
    const text = fontText(name);
    assert.ok(referenceGlyphs(text).size > 1500);
    sameAsReference(text, name);
    // The same font laid out unusually (CRLF, indented keywords, comments in glyphs) is read line by line: the same
    // glyphs.
    sameAsReference(
      text.replace(/\nENCODING/g, '\nCOMMENT x\n  ENCODING').replace(/\n/g, '\r\n'),
      `${name} (odd layout)`,
    );
  }
});

test('a glyph that is broken anywhere in a font refuses the font, naming the line', () => {
  const lines = fontText('6x10').split('\n');
  const last = lines.lastIndexOf('BITMAP');
  const mid = lines.indexOf('STARTCHAR A');
  const midBitmap = lines.indexOf('BITMAP', mid);
  const refused = (text: string, message: string): void =>
    assert.throws(
      () => parseBdf(text),
      (e) => {
        assert.ok(e instanceof BdfError);
        assert.equal(e.message, message);
        return true;
      },
    );
  const broken = (at: number, del: number, ...put: string[]): string => {
    const l = lines.slice();
    l.splice(at, del, ...put);
    return l.join('\n');
  };
  refused(broken(last + 10, 1, '0G'), `line ${last + 11}: bitmap row "0G" is not 6 bits of hex`);
  refused(broken(last + 3, 1, '0'), `line ${last + 4}: bitmap row "0" is not 6 bits of hex`);
  refused(broken(midBitmap + 11, 1, 'STARTCHAR B'), `line ${midBitmap + 12}: ENDCHAR expected after 10 bitmap rows`);
  // Too few rows: the ENDCHAR line is read as the last one.
  refused(broken(midBitmap + 1, 1), `line ${midBitmap + 11}: bitmap row "ENDCHAR" is not 6 bits of hex`);
  refused(
    broken(midBitmap - 1, 1, 'BBX 300 10 0 -2'),
    `line ${midBitmap + 1}: glyph box 300x10 out of range (0..256 pixels a side)`,
  );
  refused(broken(midBitmap - 2, 1, 'DWIDTH 6x 0'), `line ${midBitmap - 1}: DWIDTH needs 1 integers`);
  assert.equal(parseBdf(broken(0, 0)).glyphs.size, 1597, 'the font itself is whole');
});

test('parsing a font decodes none of its glyphs; measuring text does not either, drawing decodes each once', () => {
  const f = parseBdf(fontText('7x13'));
  assert.equal(f.glyphs.decoded, 0);
  assert.ok(f.glyphs.has(65) && !f.glyphs.has(0x10ffff) && f.glyphs.size === 3226);
  assert.equal(measure(bitmapFace(f, 26), 'Hello'), 5 * 7 * 2);
  assert.equal(f.glyphs.decoded, 0);
  const a = f.glyphs.get(65);
  assert.equal(f.glyphs.get(65), a);
  assert.equal(f.glyphs.get(0x10ffff), undefined);
  assert.equal(f.glyphs.decoded, 1);
});

/** Where the glyph of `ch` lands for a left-aligned, middle-valigned line in an area at (ax, ay) of height h. */
function expectGlyph(
  p: { at(x: number, y: number): [number, number, number] },
  ch: string,
  ax: number,
  ay: number,
  h: number,
  scale: number,
): number {
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
after(async () => {
  await s?.close();
});

test('a BDF glyph is drawn bit for bit at its place, and at twice its size as 2x2 blocks', async () => {
  assert.equal((await s.show('one=A&two=g')).status, 200);
  const p = await s.shot();
  assert.ok(expectGlyph(p, 'A', 0, 0, 20, 1) > 10);
  assert.ok(expectGlyph(p, 'g', 0, 20, 28, 2) > 40);
  // Pixel font areas hold exactly two colours.
  assert.deepEqual([...colours(p, 0, 0, 192, 48)].sort(), ['0,0,0', '255,170,0']);
});

test('a fontSize that is not a multiple of the pixel size is a fault naming the sizes that work', async () => {
  await assert.rejects(
    sign({ x: { coordinates: '0 0 191 47', type: 'text', font: '7x13.bdf', fontSize: '20' } }),
    (err: Error) => {
      assert.match(JSON.stringify(err), /fontSize[^]*20 does not suit the bitmap font 7x13\.bdf[^]*13, 26, 39/);
      return true;
    },
  );
});
