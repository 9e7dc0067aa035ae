import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { createCanvas } from 'canvas';
import { GifWriter } from 'omggif';
import type { Frame } from '../../src/output/types.js';
import { GifAnimation } from '../../src/render/gif.js';
import { cachedPicture, preloadImage } from '../../src/render/images.js';
import { area, px, rig, T0 } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gif-'));
const RED = [255, 0, 0],
  GREEN = [0, 255, 0],
  BLUE = [0, 0, 255],
  BG = [0, 0, 80];
let anim = '';

/**
 * 20 x 10, four frames: 0 all red (keep, 100 ms); 1 left half green with a transparent top
 * row (restore previous, 200 ms); 2 right half blue (clear to background, 300 ms); 3 one green
 * pixel at 0,0 (keep, 100 ms). Each frame is a known picture once disposal is applied.
 */
function writeGif(): string {
  const buf = Buffer.alloc(4096);
  const gw = new GifWriter(buf, 20, 10, { palette: [0xff0000, 0x00ff00, 0x0000ff, 0x000000], loop: 0 });
  gw.addFrame(0, 0, 20, 10, new Array(200).fill(0), { delay: 10, disposal: 1 });
  gw.addFrame(
    0,
    0,
    10,
    10,
    Array.from({ length: 100 }, (_, i) => (i < 10 ? 3 : 1)),
    { delay: 20, disposal: 3, transparent: 3 },
  );
  gw.addFrame(10, 0, 10, 10, new Array(100).fill(2), { delay: 30, disposal: 2 });
  gw.addFrame(0, 0, 1, 1, [1], { delay: 10, disposal: 1 });
  const file = path.join(dir, 'anim.gif');
  writeFileSync(file, buf.subarray(0, gw.end()));
  return file;
}

before(async () => {
  anim = writeGif();
  await preloadImage(anim);
});

function gifRig(width = 20, height = 10) {
  const a = area({ id: 'g', type: 'image', x: 0, y: 0, width, height, backgroundColor: { r: 0, g: 0, b: 80, a: 1 } });
  const r = rig([a]);
  r.set(a, { file: anim, setAt: T0 });
  return r;
}

const rgb = (f: Frame, x: number, y: number) => px(f, x, y).slice(0, 3);

test('animated GIF frames follow their own delays, disposal and transparency, and loop', () => {
  const r = gifRig();
  const at = (ms: number) => r.compositor.render(T0 + ms);
  let f = at(50);
  assert.deepEqual([rgb(f, 3, 5), rgb(f, 15, 5)], [RED, RED], 'frame 0');
  f = at(150);
  assert.deepEqual(
    [rgb(f, 3, 0), rgb(f, 3, 5), rgb(f, 15, 5)],
    [RED, GREEN, RED],
    'frame 1: transparent row shows frame 0',
  );
  f = at(350);
  assert.deepEqual([rgb(f, 3, 5), rgb(f, 15, 5)], [RED, BLUE], 'frame 2: frame 1 was restored away');
  f = at(650);
  assert.deepEqual(
    [rgb(f, 0, 0), rgb(f, 3, 5), rgb(f, 15, 5)],
    [GREEN, RED, BG],
    'frame 3: frame 2 cleared to background',
  );
  f = at(750);
  assert.deepEqual([rgb(f, 0, 0), rgb(f, 15, 5)], [RED, RED], 'looped to frame 0');
});

test('GIF frame timing: the next change is the next frame boundary, exactly', () => {
  const r = gifRig();
  r.compositor.render(T0);
  const boundaries = [100, 300, 600, 700, 800, 1000];
  let t = T0;
  for (const b of boundaries) {
    t = r.compositor.nextChange(t);
    assert.equal(t - T0, b);
    const before = r.compositor.render(t - 1).seq;
    assert.notEqual(r.compositor.render(t).seq, before, `a new frame at ${b} ms`);
  }
  const pic = cachedPicture(anim);
  assert.equal(pic?.kind === 'animation' ? pic.anim.delays.join() : '', '100,200,300,100');
});

test('a picture larger than its area is scaled down keeping its aspect ratio; a smaller one is centred', async () => {
  // 400 x 100 with a red left half and a green right half, into a 200 x 200 area: 200 x 50, centred vertically.
  const c = createCanvas(400, 100);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#f00';
  ctx.fillRect(0, 0, 200, 100);
  ctx.fillStyle = '#0f0';
  ctx.fillRect(200, 0, 200, 100);
  const big = path.join(dir, 'big.png');
  writeFileSync(big, c.toBuffer('image/png'));
  await preloadImage(big);
  const a = area({
    id: 'p',
    type: 'image',
    x: 100,
    y: 0,
    width: 200,
    height: 160,
    backgroundColor: { r: 0, g: 0, b: 80, a: 1 },
  });
  const r = rig([a]);
  r.set(a, { file: big, setAt: T0 });
  const f = r.compositor.render(T0);
  // 200 x 50 centred in 200 x 160: rows 55..104.
  assert.deepEqual(rgb(f, 100 + 50, 80), RED);
  assert.deepEqual(rgb(f, 100 + 150, 80), GREEN);
  assert.deepEqual(rgb(f, 150, 54), BG);
  assert.deepEqual(rgb(f, 150, 55), RED);
  assert.deepEqual(rgb(f, 150, 104), RED);
  assert.deepEqual(rgb(f, 150, 105), BG);

  const small = gifRig(60, 30);
  const g = small.compositor.render(T0 + 50);
  // 20 x 10 centred in 60 x 30: columns 20..39, rows 10..19.
  assert.deepEqual([rgb(g, 19, 15), rgb(g, 20, 15), rgb(g, 39, 15), rgb(g, 40, 15)], [BG, RED, RED, BG]);
  assert.deepEqual([rgb(g, 30, 9), rgb(g, 30, 10), rgb(g, 30, 19), rgb(g, 30, 20)], [BG, RED, RED, BG]);
});

test('decoded pictures are cached: a second load is the same object', async () => {
  assert.equal(await preloadImage(anim), cachedPicture(anim));
  await assert.rejects(preloadImage(path.join(dir, 'missing.png')));
  const bad = path.join(dir, 'bad.gif');
  writeFileSync(bad, 'GIF89a not really');
  await assert.rejects(preloadImage(bad));
});

test('a GIF too big to keep every frame plays by decoding frame after frame, with the same pictures', () => {
  const bytes = readFileSync(anim);
  const kept = new GifAnimation(bytes);
  const streamed = new GifAnimation(bytes, 0);
  assert.equal(kept.streaming, false);
  assert.equal(streamed.streaming, true);
  const pixels = (a: GifAnimation, i: number) => a.frame(i).getContext('2d').getImageData(0, 0, 20, 10).data.join();
  // Forwards, then backwards across the loop, then skipping frames.
  for (const i of [0, 1, 2, 3, 0, 2, 1, 3]) assert.equal(pixels(streamed, i), pixels(kept, i), `frame ${i}`);
});

test('a picture whose size would exhaust memory is refused at preload', async () => {
  const buf = Buffer.alloc(1024);
  const gw = new GifWriter(buf, 9000, 9000, { palette: [0, 0xffffff] });
  gw.addFrame(0, 0, 1, 1, [1]);
  const huge = path.join(dir, 'huge.gif');
  writeFileSync(huge, buf.subarray(0, gw.end()));
  await assert.rejects(preloadImage(huge), /too large/);
});
