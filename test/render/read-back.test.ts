// The strip read-back through the native helper's converter, reading cairo's pixels in place or
// from toBuffer's copy, gives the picture buffer the same bytes as getImageData, for whole
// strips, column ranges and partial heights, over pixels of every channel value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Canvas, createCanvas, Image, type CanvasRenderingContext2D } from 'canvas';
import { nativeHelper, nativeHelperProblem } from '../../src/native/helper.js';
import { FORMATS } from '../../src/output/pixel-format.js';
import {
  pretendCanvasVersion,
  readBack,
  readBackMode,
  readsInPlace,
  useNativeReadBack,
} from '../../src/render/read-back.js';

function scratch(w: number, h: number) {
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d', { alpha: false });
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, w, h);
  // Every value in each channel somewhere, and antialiased edges and text over them.
  const img = ctx.createImageData(w, h);
  for (let i = 0; i < w * h; i++) {
    img.data[i * 4] = i & 255;
    img.data[i * 4 + 1] = (i * 7) & 255;
    img.data[i * 4 + 2] = (i * 13 + 5) & 255;
    img.data[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  ctx.fillStyle = 'rgba(255, 170, 0, 0.6)';
  ctx.beginPath();
  ctx.arc(w / 3, h / 2, h / 3, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#1e90ff';
  ctx.font = `${Math.floor(h / 2)}px DejaVu Sans`;
  ctx.fillText('Gleis 3 ÄÖÜ', 4, h * 0.7);
  return { canvas, ctx };
}

test('the native read-back writes the bytes getImageData does, into the right place of the picture', () => {
  assert.equal(nativeHelperProblem(), undefined, 'the native helper is built by `make build`');
  const W = 203,
    H = 300;
  const { canvas, ctx } = scratch(W, 128);
  const cases = [
    [0, W, 128, 0],
    [0, W, 57, 200],
    [17, 90, 128, 3],
    [150, 53, 40, 100],
    [0, 40, 128, 0],
  ];
  try {
    for (const [x, w, h, y] of cases)
      for (const how of ['in-place', 'copy'] as const) {
        const viaNative = new Uint8Array(W * H * 4).fill(7),
          viaImageData = new Uint8Array(W * H * 4).fill(7);
        useNativeReadBack(how);
        readBack(canvas, ctx, x, w, h, viaNative, W, y);
        useNativeReadBack(false);
        readBack(canvas, ctx, x, w, h, viaImageData, W, y);
        assert.ok(Buffer.from(viaNative).equals(Buffer.from(viaImageData)), `${how}: x ${x} w ${w} h ${h} y ${y}`);
        // Something was written, and only there: the bytes around the rectangle keep their 7.
        const at = ((y + 1) * W + x + 1) * 4;
        assert.equal(viaNative[at + 3], 255);
        if (x > 0) assert.equal(viaNative[(y * W + x - 1) * 4], 7);
      }
  } finally {
    useNativeReadBack(undefined);
  }
});

test(
  'a rectangle read from one column of the canvas lands at another of the picture (a canvas of the ' +
    "rectangle's own width)",
  () => {
    const W = 203,
      H = 60;
    const { canvas, ctx } = scratch(40, 30);
    try {
      for (const [x, w, h, y, dx] of [
        [0, 40, 30, 5, 150],
        [10, 20, 7, 0, 3],
        [0, 40, 2, 50, 0],
      ])
        for (const how of ['in-place', 'copy'] as const) {
          const viaNative = new Uint8Array(W * H * 4).fill(7),
            viaImageData = new Uint8Array(W * H * 4).fill(7);
          useNativeReadBack(how);
          readBack(canvas, ctx, x, w, h, viaNative, W, y, dx);
          useNativeReadBack(false);
          readBack(canvas, ctx, x, w, h, viaImageData, W, y, dx);
          assert.ok(
            Buffer.from(viaNative).equals(Buffer.from(viaImageData)),
            `${how}: x ${x} w ${w} h ${h} y ${y} dx ${dx}`,
          );
          // The canvas's pixel (x, 0) is the picture's (dx, y); left of dx nothing was written.
          const [r, g, b] = ctx.getImageData(x, 0, 1, 1).data;
          assert.deepEqual([...viaNative.subarray((y * W + dx) * 4, (y * W + dx) * 4 + 4)], [r, g, b, 255]);
          if (dx > 0) assert.equal(viaNative[(y * W + dx - 1) * 4], 7);
        }
    } finally {
      useNativeReadBack(undefined);
    }
  },
);

function counting(ctx: CanvasRenderingContext2D, canvas: Canvas) {
  const n = { imageData: 0, toBuffer: 0 };
  const gid = ctx.getImageData.bind(ctx),
    tb = canvas.toBuffer.bind(canvas);
  ctx.getImageData = ((...a: Parameters<typeof gid>) => {
    n.imageData++;
    return gid(...a);
  }) as typeof ctx.getImageData;
  canvas.toBuffer = ((...a: Parameters<typeof tb>) => {
    n.toBuffer++;
    return (tb as (...b: unknown[]) => unknown)(...a);
  }) as typeof canvas.toBuffer;
  return n;
}

test("cairo's pixels are read in place: no toBuffer copy, no getImageData, even for a small rectangle", () => {
  assert.ok(readsInPlace(), "the helper finds node-canvas's library and its Canvas::ensureSurface");
  const { canvas, ctx } = scratch(64, 32);
  const n = counting(ctx, canvas);
  readBack(canvas, ctx, 0, 64, 32, new Uint8Array(64 * 32 * 4), 64, 0);
  const wide = scratch(1920, 128),
    m = counting(wide.ctx, wide.canvas);
  readBack(wide.canvas, wide.ctx, 10, 20, 10, new Uint8Array(1920 * 128 * 4), 1920, 0);
  assert.deepEqual(
    [n, m],
    [
      { imageData: 0, toBuffer: 0 },
      { imageData: 0, toBuffer: 0 },
    ],
  );
});

test('the reader refuses what is not an opaque canvas, or a rectangle outside it, before touching memory', () => {
  const read = nativeHelper().canvasReader!(Canvas, FORMATS.ARGB8888)!;
  const dst = new Uint8Array(64 * 32 * 4);
  const { canvas } = scratch(64, 32);
  assert.throws(() => read(new Image(), 0, 1, 1, dst, 0, 256), TypeError);
  assert.throws(() => read({}, 0, 1, 1, dst, 0, 256), TypeError);
  const translucent = createCanvas(8, 8);
  translucent.getContext('2d');
  assert.throws(() => read(translucent, 0, 8, 8, dst, 0, 32), /opaque/);
  assert.throws(() => read(canvas, 60, 8, 8, dst, 0, 256), /outside/);
  assert.throws(() => read(canvas, 0, 64, 33, dst, 0, 256), /outside/);
  assert.throws(() => read(canvas, 0, 64, 32, dst, 4, 256), /destination/);
  read(canvas, 0, 64, 32, dst, 0, 256);
  assert.equal(dst[3], 255);
});

test('without the reader a whole strip is copied out with toBuffer, a small rectangle read with getImageData', () => {
  useNativeReadBack('copy');
  try {
    const { canvas, ctx } = scratch(64, 32);
    const n = counting(ctx, canvas);
    readBack(canvas, ctx, 0, 64, 32, new Uint8Array(64 * 32 * 4), 64, 0);
    assert.deepEqual(n, { imageData: 0, toBuffer: 1 });
    // A rectangle of a few pixels in a wide strip is cheaper through getImageData.
    const wide = scratch(1920, 128),
      m = counting(wide.ctx, wide.canvas);
    readBack(wide.canvas, wide.ctx, 10, 20, 10, new Uint8Array(1920 * 128 * 4), 1920, 0);
    assert.deepEqual(m, { imageData: 1, toBuffer: 0 });
  } finally {
    useNativeReadBack(undefined);
  }
});

test('with neither the reader nor the helper, every rectangle is read with getImageData', () => {
  useNativeReadBack('in-place');
  const { canvas, ctx } = scratch(64, 32);
  readBack(canvas, ctx, 0, 64, 32, new Uint8Array(64 * 32 * 4), 64, 0);
  useNativeReadBack(false);
  try {
    const n = counting(ctx, canvas);
    readBack(canvas, ctx, 0, 64, 32, new Uint8Array(64 * 32 * 4), 64, 0);
    assert.deepEqual(n, { imageData: 1, toBuffer: 0 });
  } finally {
    useNativeReadBack(undefined);
  }
});

test(
  'a node-canvas other than the one the helper was built against is never read in place: the pixels come by ' +
    'copy, right, and /status says why',
  () => {
    const { canvas, ctx } = scratch(64, 32);
    const want = new Uint8Array(64 * 32 * 4);
    useNativeReadBack(false);
    readBack(canvas, ctx, 0, 64, 32, want, 64, 0);
    try {
      pretendCanvasVersion('0.0.1');
      assert.equal(readsInPlace(), false, 'the symbol-reading path is not taken');
      assert.equal(readBackMode().mode, 'copy');
      assert.match(
        readBackMode().reason ?? '',
        new RegExp(
          `built against node-canvas ${nativeHelper().canvasVersion.replace(/\./g, '\\.')}, this is 0\\.0\\.1`,
        ),
      );
      const n = counting(ctx, canvas);
      const got = new Uint8Array(64 * 32 * 4);
      readBack(canvas, ctx, 0, 64, 32, got, 64, 0);
      assert.equal(n.toBuffer, 1, 'read through a copy of the canvas');
      assert.ok(Buffer.from(got).equals(Buffer.from(want)), 'the same pixels as getImageData');
    } finally {
      pretendCanvasVersion(undefined);
      useNativeReadBack(undefined);
    }
    assert.deepEqual(readBackMode(), { mode: 'in-place' }, 'the version it was built against is read in place');
  },
);
