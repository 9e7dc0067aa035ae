// The native helper's brightness conversion to 32-bit framebuffer pixels takes a SIMD path that
// fits the table instead of looking every byte up (native/src/brightness.cc). These tests hold
// every byte it writes to the table itself: every percentage, every 32-bit layout, odd widths
// (the scalar tail), column strips, and tables that fit no line at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brightnessTable, FORMATS } from '../../src/output/pixel-format.js';
import { nativeHelper, nativeHelperProblem, type PixelFormat } from '../../src/native/helper.js';
import { skipReason } from '../helpers/skip.js';

const skip = skipReason(nativeHelperProblem());
const FORMATS32 = Object.entries(FORMATS).filter(([, f]) => f.bitsPerPixel === 32);

/** Every byte value in every channel, in an order that is not a ramp. */
function source(width: number, height: number): Uint8Array {
  return new Uint8Array(width * height * 4).map((_, i) => (i * 131 + (i >> 7) * 17) & 255);
}

/** The pixel the table defines, as the framebuffer stores it (little-endian words). */
function expected(src: Uint8Array, i: number, f: PixelFormat, lut: Uint8Array): number {
  const t = f.transp.length ? 255 << f.transp.offset : 0;
  return (
    ((lut[src[i]] << f.red.offset) | (lut[src[i + 1]] << f.green.offset) | (lut[src[i + 2]] << f.blue.offset) | t) >>> 0
  );
}

function check(
  width: number,
  height: number,
  f: PixelFormat,
  lut: Uint8Array,
  srcStride = width * 4,
  label = '',
): void {
  const src = source(srcStride / 4, height);
  const stride = width * 4 + 8;
  const dst = new Uint8Array(4 + stride * height).fill(0xaa);
  nativeHelper().convert(src, width, height, dst, 4, stride, f, lut, srcStride);
  const view = new DataView(dst.buffer);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const got = view.getUint32(4 + y * stride + x * 4, true),
        want = expected(src, y * srcStride + x * 4, f, lut);
      if (got !== want) assert.fail(`${label} pixel ${x},${y}: ${got.toString(16)} != ${want.toString(16)}`);
    }
    const gap = dst.subarray(4 + y * stride + width * 4, 4 + (y + 1) * stride);
    assert.ok(
      gap.every((b) => b === 0xaa),
      `${label} row ${y}: bytes past the row untouched`,
    );
  }
  assert.equal(dst[0], 0xaa, 'bytes before the offset untouched');
}

test('brightness to 32-bit pixels: exactly the table at every percentage and layout', { skip }, () => {
  for (let p = 0; p < 100; p++) {
    const lut = brightnessTable(p)!;
    for (const [name, f] of FORMATS32) check(67, 5, f, lut, 67 * 4, `${name} ${p}%`);
  }
});

test('brightness to 32-bit pixels: column strips and a full-HD row', { skip }, () => {
  const lut = brightnessTable(37)!;
  check(1920, 2, FORMATS.XRGB8888, lut, 1920 * 4, 'full row');
  check(13, 9, FORMATS.XRGB8888, lut, 40 * 4, 'strip');
  check(1, 3, FORMATS.ARGB8888, lut, 4, 'one pixel');
});

test('brightness to 32-bit pixels: tables that are no brightness curve are still exact', { skip }, () => {
  const tables = [
    new Uint8Array(256).map((_, i) => (i * 7919) % 251), // no line fits anywhere
    new Uint8Array(256).map((_, i) => 255 - i), // falling
    new Uint8Array(256).map((_, i) => i >> 1), // a straight line
    new Uint8Array(256).map((_, i) => (i < 200 ? i : 3)), // a line with a broken top
  ];
  for (const [n, lut] of tables.entries()) {
    for (const [name, f] of FORMATS32) check(35, 3, f, lut, 35 * 4, `table ${n} ${name}`);
  }
  // Alternating tables (several panels at different brightness) keep their own results.
  for (let r = 0; r < 3; r++)
    for (const p of [10, 60, 90, 25, 75]) check(40, 2, FORMATS.XRGB8888, brightnessTable(p)!, 160, `round ${r} ${p}%`);
});
