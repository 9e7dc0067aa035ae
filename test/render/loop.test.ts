import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import type { Frame } from '../../src/output/types.js';
import { FrameLoop } from '../../src/render/loop.js';
import { area, rig, T0 } from './helpers.js';

// Time is mocked (setTimeout and Date): the loop runs exactly as in service, and the test
// can watch 5 s of it without waiting 5 s. setImmediate stays real (invalidate uses it).
beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: T0 }));
afterEach(() => mock.timers.reset());

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** Advances mocked time 1 ms at a time so each timer fires at its own instant. */
async function advance(ms: number): Promise<void> {
  for (let i = 0; i < ms; i++) {
    mock.timers.tick(1);
    await flush();
  }
}

function recorder(result: boolean | (() => Promise<boolean>) = true) {
  const got: Array<{ seq: number; at: number }> = [];
  const sink = async (f: Frame) => {
    got.push({ seq: f.seq, at: Date.now() });
    return typeof result === 'function' ? result() : result;
  };
  return { got, sink };
}

test('a static screen produces no new frames for 5 s (and the loop holds no timer)', async () => {
  const a = area({ id: 'a', align: 'center' });
  const r = rig([a]);
  r.set(a, { text: 'Fits', setAt: T0 });
  const { got, sink } = recorder();
  const loop = new FrameLoop(r.compositor, sink);
  loop.start();
  await flush();
  await advance(5000);
  loop.stop();
  assert.equal(got.length, 1, 'only the first frame');
  assert.equal(loop.stats().rendered, 1, 'not even a render was attempted after it');
});

test('scrolling runs on the absolute frame grid at the configured fps, no frame missed', async () => {
  const a = area({ id: 'a', scrollSpeed: 0 });
  // Contents made for a 1000 fps unit move 1 px at a time (scrollStep): faster than this loop's 50 fps.
  const r = rig([a], { fps: 1000 });
  r.set(a, { text: 'A text far too long to fit in six hundred and forty pixels of panel', setAt: T0 });
  const { got, sink } = recorder();
  const loop = new FrameLoop(r.compositor, sink, Date.now, { fps: 50 });
  loop.start();
  await advance(1000);
  loop.stop();
  assert.ok(got.length >= 50 && got.length <= 51, `${got.length} frames in 1 s`);
  for (let i = 1; i < got.length; i++) assert.equal(got[i].at - got[i - 1].at, 20, `frame ${i} off the 20 ms grid`);
  assert.equal(loop.stats().missed, 0);

  const slow = new FrameLoop(r.compositor, recorder().sink, Date.now, { fps: 25 });
  slow.start();
  await advance(1000);
  slow.stop();
  assert.ok(Math.abs(slow.stats().rendered - 25) <= 1, `${slow.stats().rendered} renders at 25 fps`);
});

test('a clock wakes the loop exactly on the second boundary and sleeps in between', async () => {
  mock.timers.setTime(T0 + 300);
  const a = area({ id: 'c', type: 'date', dateFormat: 'HH:mm:ss', dateOffset: 0 });
  const r = rig([a]);
  r.state.areas.set('c', { area: a, source: 'default', setAt: T0 });
  const { got, sink } = recorder();
  const loop = new FrameLoop(r.compositor, sink);
  loop.start();
  await advance(2800);
  loop.stop();
  assert.deepEqual(
    got.map((g) => g.at - T0),
    [300, 1000, 2000, 3000],
  );
  assert.equal(loop.stats().rendered, 4);
});

test('invalidate() resolves with whether the frame holding the change reached the output', async () => {
  const a = area({ id: 'a' });
  const r = rig([a]);
  let ok = true;
  const { got, sink } = recorder(async () => ok);
  const loop = new FrameLoop(r.compositor, sink);
  loop.start();
  await flush();
  // A change within one frame period of the last drawn frame waits for the next period.
  const settle = async (p: Promise<boolean>) => {
    await advance(20);
    return p;
  };
  r.set(a, { text: 'One', setAt: Date.now() });
  assert.equal(await settle(loop.invalidate()), true);
  const seqOne = got[got.length - 1].seq;
  ok = false;
  r.set(a, { text: 'Two', setAt: Date.now() });
  assert.equal(await settle(loop.invalidate()), false, 'the output failed');
  assert.ok(got[got.length - 1].seq > seqOne);
  ok = true;
  // Nothing visible changed, yet the confirmation still reflects a real write.
  const before = got.length;
  assert.equal(await settle(loop.invalidate()), true);
  assert.equal(got.length, before + 1);
  loop.stop();
});

test(
  'redraw() names the frame that carried the change out: ' + 'a newer one when a slow output never took the first',
  async () => {
    const a = area({ id: 'a' });
    const r = rig([a]);
    const held: Array<() => void> = [];
    const sink = () => new Promise<boolean>((resolve) => held.push(() => resolve(true)));
    const loop = new FrameLoop(r.compositor, sink);
    loop.start();
    await flush();
    assert.equal(loop.rendered, 1, 'the first frame is with the output');
    r.set(a, { text: 'One', setAt: Date.now() });
    const one = loop.redraw();
    await advance(20);
    assert.equal(loop.rendered, 2, 'frame 2 holds One and waits for the output');
    r.set(a, { text: 'Two', setAt: Date.now() });
    const two = loop.redraw();
    await advance(20);
    assert.equal(loop.rendered, 3, 'frame 3 holds Two and replaces frame 2');
    held.shift()!();
    await flush();
    held.shift()!();
    await flush();
    assert.deepEqual(await one, { ok: true, frame: 3 });
    assert.deepEqual(await two, { ok: true, frame: 3 });
    assert.equal(loop.stats().dropped, 1);
    loop.stop();
  },
);

test('a burst of changes is drawn at most once per frame period, every change confirmed', async () => {
  const a = area({ id: 'a', align: 'center' });
  const r = rig([a]);
  const { got, sink } = recorder();
  const loop = new FrameLoop(r.compositor, sink, Date.now, { fps: 50 });
  loop.start();
  await flush();
  const start = loop.stats().rendered;
  const confirmations: Array<Promise<boolean>> = [];
  // 40 commands over 100 ms (one every 2.5 ms): at most 6 frames, not 40.
  for (let i = 0; i < 40; i++) {
    r.set(a, { text: `Text ${i}`, setAt: Date.now() });
    confirmations.push(loop.invalidate());
    if (i % 2) await advance(5);
    else await flush();
  }
  await advance(40);
  assert.deepEqual(await Promise.all(confirmations), new Array(40).fill(true));
  const drawn = loop.stats().rendered - start;
  assert.ok(drawn >= 4 && drawn <= 7, `${drawn} frames for 40 changes in 100 ms`);
  for (let i = 1; i < got.length; i++)
    assert.ok(got[i].at - got[i - 1].at >= 20, `frames ${got[i - 1].at} and ${got[i].at} closer than one period`);
  loop.stop();
});

test('a slow output gets the newest frame, never an older one, and the loop is not held up', async () => {
  const a = area({ id: 'a', scrollSpeed: 0 });
  // Changes faster than the loop's frame rate (see above).
  const r = rig([a], { fps: 1000 });
  r.set(a, { text: 'A text far too long to fit in six hundred and forty pixels of panel', setAt: T0 });
  // Each write takes 100 ms (five frame periods).
  const { got, sink } = recorder(() => new Promise((res) => setTimeout(() => res(true), 100)));
  const loop = new FrameLoop(r.compositor, sink, Date.now, { fps: 50 });
  loop.start();
  await advance(1000);
  loop.stop();
  const s = loop.stats();
  assert.ok(s.rendered >= 50, `rendered ${s.rendered}`);
  assert.ok(got.length >= 9 && got.length <= 11, `${got.length} writes of 100 ms in 1 s`);
  assert.ok(s.dropped >= 35, `dropped ${s.dropped}`);
  for (let i = 1; i < got.length; i++) assert.ok(got[i].seq > got[i - 1].seq);
  assert.equal(s.missed, 0);
});
