// The worker-thread encoder behind /screenshot: lossless PNG, JPEG, and a worker that leaves when idle and comes back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScreenshotEncoder } from '../../src/render/encoder.js';
import { decode, until } from '../helpers/service.js';

/** A 64x16 unit frame of distinct opaque pixels. */
function frame(seq: number) {
  const width = 64,
    height = 16;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([(i * 7 + seq) & 255, (i >> 2) & 255, (i * 13) & 255, 255], i * 4);
  return { width, height, data, seq };
}

test('PNG of the top-left of a frame decodes to its exact pixels; JPEG has the size asked for', async () => {
  const enc = new ScreenshotEncoder();
  try {
    const f = frame(1);
    const px = await decode(await enc.encode(f, 40, 10, 'png'));
    assert.deepEqual([px.width, px.height], [40, 10]);
    for (let y = 0; y < 10; y++) {
      assert.deepEqual(
        [...px.data.subarray(y * 160, (y + 1) * 160)],
        [...f.data.subarray(y * 256, y * 256 + 160)],
        `row ${y}`,
      );
    }
    const jpeg = await enc.encode(f, 64, 16, 'jpeg');
    assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
    assert.equal((await decode(jpeg)).width, 64);
  } finally {
    await enc.close();
  }
});

test('what was never drawn (all zero) is opaque black in a PNG, as a panel shows it, not transparent', async () => {
  const enc = new ScreenshotEncoder();
  try {
    const f = { width: 64, height: 16, data: new Uint8Array(64 * 16 * 4), seq: 0 };
    f.data.set([255, 128, 0, 255], (5 * 64 + 7) * 4);
    const px = await decode(await enc.encode(f, 64, 16, 'png'));
    assert.deepEqual([...px.data.subarray(0, 4)], [0, 0, 0, 255], 'a pixel never drawn');
    assert.deepEqual([...px.data.subarray((5 * 64 + 7) * 4, (5 * 64 + 8) * 4)], [255, 128, 0, 255], 'a drawn pixel');
  } finally {
    await enc.close();
  }
});

test('the worker exits when idle and a later encode starts a new one', async () => {
  const enc = new ScreenshotEncoder(50);
  await enc.encode(frame(1), 64, 16, 'png');
  assert.equal(enc.running, true);
  await until(() => !enc.running, 3000, 'the idle worker to exit');
  const again = await decode(await enc.encode(frame(2), 64, 16, 'png'));
  assert.equal(again.data[0], frame(2).data[0]);
  await enc.close();
});

test('encodes pending when the worker is closed fail instead of hanging', async () => {
  const enc = new ScreenshotEncoder();
  const pending = enc.encode(frame(1), 64, 16, 'png');
  await enc.close();
  await assert.rejects(pending, /exited|terminated/);
});

test(
  'one after another and two at once, each image is of its own frame, and the frames given stay whole (the ' +
    'pixels travel in a buffer the worker hands back)',
  async () => {
    const enc = new ScreenshotEncoder();
    try {
      const frames = [frame(1), frame(2), frame(3)];
      const rowOf = async (b: Buffer) => [...(await decode(b)).data.subarray(0, 256)];
      for (const f of [frames[0], frames[1], frames[0]])
        assert.deepEqual(await rowOf(await enc.encode(f, 64, 16, 'png')), [...f.data.subarray(0, 256)]);
      const both = await Promise.all([enc.encode(frames[1], 64, 16, 'png'), enc.encode(frames[2], 64, 16, 'png')]);
      assert.deepEqual(await rowOf(both[0]), [...frames[1].data.subarray(0, 256)]);
      assert.deepEqual(await rowOf(both[1]), [...frames[2].data.subarray(0, 256)]);
      assert.ok(
        frames.every((f) => f.data.byteLength === 64 * 16 * 4),
        'no frame was moved to the worker',
      );
    } finally {
      await enc.close();
    }
  },
);
