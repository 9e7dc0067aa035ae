import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FrameLoop } from '../../src/render/loop.js';
import { area, inkColumns, px, rig, T0 } from './helpers.js';

test('an area whose font file is not a font shows its text in the default font and reports it', () => {
  const bad = path.join(mkdtempSync(path.join(tmpdir(), 'mlds-font-')), 'broken.ttf');
  writeFileSync(bad, 'not a font at all');
  const a = area({ id: 'a', font: bad, align: 'left', width: 320, fontSize: 40 });
  const b = area({ id: 'b', x: 320, width: 320, backgroundColor: { r: 0, g: 90, b: 0, a: 1 } });
  const r = rig([a, b]);
  r.set(a, { text: 'Still shown', setAt: T0 });
  r.set(b, { text: 'Neighbour', setAt: T0 });
  const f = r.compositor.render(T0);
  assert.ok(inkColumns(f, 0, 320).length > 100, 'text drawn with the default font');
  assert.deepEqual(px(f, 639, 0), [0, 90, 0, 255], 'the other area is untouched');
  const faults = r.compositor.faults();
  assert.equal(faults.length, 1);
  assert.equal(faults[0].area, 'a');
  assert.match(faults[0].message, /broken\.ttf/);
});

test('a text of thousands of characters scrolls without one giant surface', () => {
  const a = area({ id: 'a', scrollSpeed: 0, fontSize: 64 });
  const r = rig([a]);
  // ~7,000 characters: about 250,000 px of text, far past cairo's 32,767 px surface limit.
  r.set(a, { text: '0123456789 '.repeat(640), setAt: T0 });
  for (const seconds of [1, 100, 400]) {
    const t = performance.now();
    const f = r.compositor.render(T0 + seconds * 1000);
    assert.ok(inkColumns(f, 0, 640).length > 200, `text visible after ${seconds} s`);
    assert.ok(performance.now() - t < 2000, 'rasterising a tile is not a stall');
  }
});

test('a render that throws does not stop the loop; confirmations say "not shown"', async () => {
  const a = area({ id: 'a' });
  const r = rig([a]);
  const loop = new FrameLoop(r.compositor, async () => true);
  const render = r.compositor.render.bind(r.compositor);
  let fail = true;
  r.compositor.render = (now?: number) => {
    if (fail) throw new Error('boom');
    return render(now);
  };
  loop.start();
  r.set(a, { text: 'x', setAt: Date.now() });
  assert.equal(await loop.invalidate(), false);
  assert.equal(loop.stats().errors, 2);
  assert.equal(loop.stats().lastError, 'boom');
  fail = false;
  assert.equal(await loop.invalidate(), true);
  loop.stop();
});
