// The fbdev output against a plain file standing in for /dev/fbN: the ioctls cannot answer
// there (ENOTTY), so geometry is injected, and the bytes the file ends up holding are checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FbdevOutput, probeFramebuffer, type FbGeometry } from '../../src/output/fbdev.js';
import { FORMATS } from '../../src/output/pixel-format.js';
import { nativeHelperProblem, type PixelFormat } from '../../src/native/helper.js';
import type { Frame } from '../../src/output/types.js';
import { skipReason } from '../helpers/skip.js';

const skip = skipReason(nativeHelperProblem());

function geometry(fmt: PixelFormat, xres: number, yres: number, lineLength: number, yresVirtual = yres): FbGeometry {
  return {
    var: { ...fmt, xres, yres, xresVirtual: xres, yresVirtual, xoffset: 0, yoffset: 0, grayscale: 0 },
    fix: { id: 'test', smemLen: lineLength * yresVirtual, lineLength, type: 0, visual: 2, ypanstep: 1 },
  };
}

function frame(width: number, height: number): Frame {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = (i * 37 + 11) & 255;
    data[i * 4 + 1] = (i * 91 + 5) & 255;
    data[i * 4 + 2] = (i * 13 + 200) & 255;
    data[i * 4 + 3] = 255;
  }
  return { width, height, data, seq: 1 };
}

/** Independent of the native code: builds each pixel's word from the bitfields, bit by bit. */
function expectedPixel(fmt: PixelFormat, r: number, g: number, b: number): number[] {
  let v = 0;
  const put = (c: number, f: { offset: number; length: number }) => {
    if (f.length) v += Math.floor(c / 2 ** (8 - f.length)) * 2 ** f.offset;
  };
  put(r, fmt.red);
  put(g, fmt.green);
  put(b, fmt.blue);
  if (fmt.transp.length) v += (2 ** fmt.transp.length - 1) * 2 ** fmt.transp.offset;
  const bytes: number[] = [];
  for (let i = 0; i < fmt.bitsPerPixel / 8; i++) bytes.push(Math.floor(v / 2 ** (8 * i)) & 255);
  return bytes;
}

async function runFormat(name: keyof typeof FORMATS): Promise<void> {
  const fmt = FORMATS[name];
  const bpp = fmt.bitsPerPixel / 8;
  const xres = 10,
    yres = 6,
    stride = xres * bpp + 8; // padded lines: stride must be honoured
  const dir = mkdtempSync(join(tmpdir(), 'mlds-fb-'));
  try {
    const path = join(dir, 'fb');
    writeFileSync(path, Buffer.alloc(stride * yres, 0xee)); // garbage that open() must clear
    const out = new FbdevOutput(path, { geometry: geometry(fmt, xres, yres, stride), backlight: null });
    await out.open();
    const f = frame(7, 5);
    await out.send(f);
    const mem = readFileSync(path);
    for (let y = 0; y < yres; y++) {
      for (let x = 0; x < stride; x++) {
        const px = Math.floor(x / bpp),
          inFrame = y < f.height && px < f.width;
        let want = 0;
        if (inFrame) {
          const i = (y * f.width + px) * 4;
          want = expectedPixel(fmt, f.data[i], f.data[i + 1], f.data[i + 2])[x % bpp];
        }
        assert.equal(mem[y * stride + x], want, `${name}: byte ${x} of line ${y}`);
      }
    }
    assert.equal(out.describe().format, name);
    await out.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const name of ['RGB565', 'BGR888', 'RGB888', 'XRGB8888', 'ARGB8888', 'BGRX8888'] as const) {
  test(`fbdev writes ${name} at the top-left, honouring the stride`, { skip }, () => runFormat(name));
}

test('fbdev known pixels: pure colours land where the format says', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mlds-fb-'));
  try {
    const cases: Array<[keyof typeof FORMATS, number[]]> = [
      ['RGB565', [0x00, 0xf8, 0xe0, 0x07, 0x1f, 0x00]],
      ['XRGB8888', [0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0]],
      ['BGRX8888', [0, 0xff, 0, 0, 0, 0, 0xff, 0, 0, 0, 0, 0xff]],
      ['RGB888', [0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff]],
    ];
    for (const [name, bytes] of cases) {
      const fmt = FORMATS[name],
        path = join(dir, name);
      writeFileSync(path, Buffer.alloc((3 * fmt.bitsPerPixel) / 8));
      const out = new FbdevOutput(path, { geometry: geometry(fmt, 3, 1, (3 * fmt.bitsPerPixel) / 8), backlight: null });
      await out.open();
      await out.send({
        width: 3,
        height: 1,
        seq: 1,
        data: Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]),
      });
      assert.deepEqual([...readFileSync(path)], bytes, name);
      await out.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fbdev brightness without a backlight scales pixels in linear light', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mlds-fb-'));
  try {
    const path = join(dir, 'fb');
    writeFileSync(path, Buffer.alloc(8));
    const out = new FbdevOutput(path, { geometry: geometry(FORMATS.XRGB8888, 2, 1, 8), backlight: null });
    await out.open();
    await out.setBrightness(50);
    await out.send({ width: 2, height: 1, seq: 1, data: Uint8Array.from([255, 255, 255, 255, 128, 0, 0, 255]) });
    const mem = [...readFileSync(path)];
    // 50% of the light of sRGB 255 is sRGB 188; of sRGB 128 it is 92 (not the naive 128 and 64).
    assert.deepEqual(mem, [188, 188, 188, 0, 0, 0, 92, 0]);
    assert.equal(out.describe().brightnessBy, 'pixel scaling');
    await out.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fbdev faults: larger display, missing device, a file without geometry, a short file', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mlds-fb-'));
  try {
    const path = join(dir, 'fb');
    writeFileSync(path, Buffer.alloc(4 * 4 * 4));
    const out = new FbdevOutput(path, { geometry: geometry(FORMATS.XRGB8888, 4, 4, 16), backlight: null });
    await out.open();
    await assert.rejects(out.send(frame(5, 4)), { code: 'EFBIG' });
    await out.close();
    await assert.rejects(new FbdevOutput(join(dir, 'nope'), { backlight: null }).open(), { code: 'ENOENT' });
    await assert.rejects(new FbdevOutput(path, { backlight: null }).open(), { code: 'ENOTTY' });
    const short = new FbdevOutput(path, { geometry: geometry(FORMATS.XRGB8888, 8, 8, 32), backlight: null });
    await assert.rejects(short.open(), { code: 'ERANGE' });
    await short.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fbdev with room for two pages but no pan ioctl falls back to one page', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mlds-fb-'));
  try {
    const path = join(dir, 'fb'),
      stride = 4 * 4;
    writeFileSync(path, Buffer.alloc(stride * 3 * 2));
    const out = new FbdevOutput(path, { geometry: geometry(FORMATS.XRGB8888, 4, 3, stride, 6), backlight: null });
    await out.open();
    assert.equal(out.describe().buffering, 'single', 'the pan at open already failed with ENOTTY');
    const f = frame(4, 3);
    await out.send(f);
    const mem = readFileSync(path);
    for (let i = 0; i < 12; i++) {
      assert.deepEqual(
        [...mem.subarray(i * 4, i * 4 + 3)],
        [f.data[i * 4 + 2], f.data[i * 4 + 1], f.data[i * 4]],
        `pixel ${i} on page 0`,
      );
    }
    assert.ok(
      mem.subarray(stride * 3).every((b) => b === 0),
      'page 1 untouched',
    );
    await out.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('probeFramebuffer names why it cannot read a device', { skip }, () => {
  assert.match(String((probeFramebuffer('/dev/fb-mlds-missing') as { error: string }).error), /^ENOENT/);
  assert.match(String((probeFramebuffer('/dev/null') as { error: string }).error), /^ENOTTY.*FBIOGET_VSCREENINFO/);
});
