import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brightnessTable, formatName, FORMATS, rgbaToRgb, rgbaToRgbPortable } from '../../src/output/pixel-format.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { skipReason } from '../helpers/skip.js';

test(
  'strided RGBA to RGB: native and portable paths agree, gaps untouched',
  { skip: skipReason(nativeHelperProblem()) },
  () => {
    const w = 7,
      h = 5,
      src = new Uint8Array(w * h * 4).map((_, i) => (i * 29 + 3) & 255);
    // A 3-pixel column strip starting at x=2, into runs 20 bytes apart starting at byte 4.
    const a = new Uint8Array(4 + 20 * h).fill(0xaa),
      b = new Uint8Array(a.length).fill(0xaa);
    const lut = brightnessTable(30);
    rgbaToRgb(src.subarray(2 * 4), 3, a, 4, lut, h, w * 4, 20);
    rgbaToRgbPortable(src.subarray(2 * 4), 3, b, 4, lut, h, w * 4, 20);
    assert.deepEqual([...a], [...b]);
    for (let y = 0; y < h; y++) {
      const i = (y * w + 2) * 4,
        d = 4 + y * 20;
      assert.deepEqual([...a.subarray(d, d + 3)], [lut![src[i]], lut![src[i + 1]], lut![src[i + 2]]]);
      assert.ok(
        a.subarray(d + 9, d + 20).every((v) => v === 0xaa),
        'bytes between runs are left alone',
      );
    }
  },
);

test('brightness table: identity at 100 %, black at 0, monotonic between', () => {
  assert.equal(brightnessTable(100), undefined);
  assert.ok(brightnessTable(0)!.every((v) => v === 0));
  const t = brightnessTable(40)!;
  for (let i = 1; i < 256; i++) assert.ok(t[i] >= t[i - 1]);
  assert.equal(t[255], Math.round(255 * (1.055 * 0.4 ** (1 / 2.4) - 0.055)));
});

test('format names', () => {
  assert.equal(formatName(FORMATS.RGB565), 'RGB565');
  assert.equal(formatName({ ...FORMATS.RGB565, red: { offset: 10, length: 5 } }), '16bpp r10/5 g5/6 b0/5 t0/0');
});
