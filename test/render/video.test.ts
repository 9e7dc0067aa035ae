// The compositor and the frame loop with a video area: the loop wakes at the video's own
// frame rate while it shows, and not at all once it is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FrameLoop } from '../../src/render/loop.js';
import { descendants, makeBars } from '../media/helpers.js';
import { area, rig } from './helpers.js';
import { until } from '../helpers/wait.js';

const FPS = 10;
let dir = '';
let file = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mlds-video-'));
  file = path.join(dir, 'bars.mp4');
  makeBars(file, FPS);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("nextChange follows the video's frame period while it shows, Infinity once cleared", async () => {
  const vid = area({ id: 'vid', type: 'video', width: 64, height: 36 });
  const still = area({ id: 'pic', type: 'text', x: 100, width: 400, fontSize: 20 });
  const s = rig([vid, still]);
  s.set(still, { text: 'Still', setAt: Date.now() });
  s.compositor.render(Date.now());
  assert.equal(s.compositor.nextChange(Date.now()), Infinity, 'a still text wakes the loop');

  s.set(vid, { file, setAt: Date.now() });
  const first = s.compositor.render(Date.now()).seq;
  await until(() => s.compositor.render(Date.now()).seq !== first, 5000, "the video's first picture", 20);
  const now = Date.now();
  const next = s.compositor.nextChange(now);
  assert.ok(
    next > now && next - now <= 1000 / FPS + 5,
    `next change in ${next - now} ms, the video's period is ${1000 / FPS} ms`,
  );

  s.set(vid, { source: 'none', setAt: Date.now() });
  s.compositor.render(Date.now());
  assert.equal(s.compositor.nextChange(Date.now()), Infinity);
  await until0();
});

async function until0(): Promise<void> {
  await until(() => descendants('ffmpeg').length === 0, 3000, 'the decoder to end', 20);
}

test(
  'the frame loop draws about as often as the video has ' + 'frames, then sleeps; stopping it ends the decoder',
  async () => {
    const vid = area({ id: 'vid', type: 'video', width: 64, height: 36 });
    const s = rig([vid]);
    const loop = new FrameLoop(s.compositor, async () => true, Date.now, { fps: 50 });
    loop.start();
    try {
      s.set(vid, { file, setAt: Date.now() });
      await loop.invalidate();
      const still = s.compositor.latest().seq;
      await until(() => s.compositor.latest().seq > still, 5000, "the decoder's first picture drawn", 20);
      const r0 = loop.stats().rendered;
      // the passing of time is what is tested: the renders of 2 s of video.
      await wait(2000);
      const playing = loop.stats().rendered - r0;
      // 10 frames a second for 2 s; a frame that arrives a little after its time costs one wake more.
      assert.ok(
        playing >= 5 && playing <= 2 * 2 * FPS + 5,
        `${playing} renders in 2 s of a ${FPS} fps video (the loop's ceiling is 100)`,
      );
      s.set(vid, { source: 'none', setAt: Date.now() });
      await loop.invalidate();
      const r1 = loop.stats().rendered;
      // the passing of time is what is tested: no renders for 1 s with nothing moving.
      await wait(1000);
      assert.ok(loop.stats().rendered - r1 <= 2, `${loop.stats().rendered - r1} renders in 1 s with nothing moving`);
      await until0();
      s.set(vid, { file, setAt: Date.now() });
      await loop.invalidate();
      await until(() => descendants('ffmpeg').length > 0, 3000, 'a decoder', 20);
      assert.equal(descendants('ffmpeg').length, 1);
    } finally {
      loop.stop();
    }
    await until0();
  },
);
