import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_BDF_PIXELS, parseBdf } from '../../src/text/bdf.js';
import { REPO, serviceDir } from '../helpers/service.js';
import { pixelFont, setLine } from './pixel-font.js';

test('every length a BDF font states is bounded: an absurd one refuses the font, naming it and its line', () => {
  assert.equal(parseBdf(pixelFont()).pixelSize, 16);
  const cases: Array<[string, (lines: string[]) => string[], RegExp]> = [
    [
      'FONT_ASCENT',
      setLine('FONT_ASCENT', '999999999'),
      /^line 7: FONT_ASCENT 999999999 is out of range \(-256\.\.256 pixels\)$/,
    ],
    ['FONT_DESCENT', setLine('FONT_DESCENT', '-999999'), /^line 8: FONT_DESCENT -999999 is out of range/],
    [
      'their sum',
      (l) => setLine('FONT_DESCENT', '200')(setLine('FONT_ASCENT', '200')(l)),
      /FONT_ASCENT \+ FONT_DESCENT \(the line height\) 400 is out of range \(1\.\.256 pixels\)/,
    ],
    ['PIXEL_SIZE', setLine('PIXEL_SIZE', '100000'), /^line 6: PIXEL_SIZE 100000 is out of range \(0\.\.256 pixels\)$/],
    [
      'FONTBOUNDINGBOX',
      setLine('FONTBOUNDINGBOX', '8 70000 0 -2'),
      /^line 4: FONTBOUNDINGBOX height 70000 is out of range/,
    ],
    [
      'FONTBOUNDINGBOX offset',
      setLine('FONTBOUNDINGBOX', '8 16 0 -99999'),
      /^line 4: FONTBOUNDINGBOX y offset -99999 is out of range/,
    ],
    ['DWIDTH', setLine('DWIDTH', '1000000 0'), /^line 14: DWIDTH 1000000 is out of range \(0\.\.256 pixels\)$/],
    ['a negative DWIDTH', setLine('DWIDTH', '-8 0'), /^line 14: DWIDTH -8 is out of range/],
    [
      'BBX size',
      setLine('BBX', '8 40000 0 -2'),
      /^line 16: glyph box 8x40000 out of range \(0\.\.256 pixels a side\)$/,
    ],
    ['BBX offset', setLine('BBX', '8 16 0 123456789'), /^line 15: BBX y offset 123456789 is out of range/],
  ];
  for (const [what, change, message] of cases) {
    assert.throws(
      () => parseBdf(pixelFont(change)),
      (err: Error) => {
        assert.match(err.message, message, what);
        return true;
      },
      what,
    );
  }
  // The bound itself is allowed: a 256-pixel line is a (huge) font.
  assert.equal(
    parseBdf(pixelFont((l) => setLine('FONT_DESCENT', '0')(setLine('FONT_ASCENT', String(MAX_BDF_PIXELS))(l))))
      .pixelSize,
    MAX_BDF_PIXELS,
  );
});

test("mlds test: a BDF font with FONT_ASCENT 999999999 is a configuration fault at the area's font, exit 78", () => {
  const sd = serviceDir({
    displays: {
      s: {
        displayWidth: '192',
        displayHeight: '48',
        output: { driver: 'virtual' },
        layout: { l: { dest: { coordinates: '0 0 191 15', type: 'text', font: 'unifont.bdf', defaultValue: 'I' } } },
      },
    },
  });
  try {
    writeFileSync(path.join(sd.dir, 'fonts', 'unifont.bdf'), pixelFont(setLine('FONT_ASCENT', '999999999')));
    const r = spawnSync(
      process.execPath,
      [path.join(REPO, 'dist/cli.js'), 'test', '--config', sd.configFile, '--out', path.join(sd.dir, 'out')],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 78, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /^ {2}\/displays\/s\/layout\/l\/dest\/font: cannot be read as a BDF font: line 7: FONT_ASCENT 999999999 is out of range \(-256\.\.256 pixels\)$/m,
    );
    assert.doesNotMatch(r.stderr + r.stdout, /Canvas|Pango|CRITICAL/);
  } finally {
    sd.cleanup();
  }
});
