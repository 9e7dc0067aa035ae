import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { test } from 'node:test';
import { Compositor } from '../../src/render/compositor.js';
import { area, rig, T0 } from './helpers.js';

test('a steady scroll leaves no read-back memory behind: 300 frames a turn apart run no full collection', async () => {
  const line = area({ id: 'line', fontSize: 96 });
  const { compositor, set } = rig([line]);
  set(line, { text: 'Intercity 1234 to Amsterdam Centraal via Utrecht, Schiphol Airport and Leiden ', setAt: T0 });
  // The rig's render copies each frame; the loop renders the compositor's own buffer.
  const render = (t: number) => Compositor.prototype.render.call(compositor, t);
  for (let i = 0; i < 20; i++) { render(T0 + i * 20); await turn(); }
  const before = process.memoryUsage().arrayBuffers;
  let major = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if ((e as unknown as { detail: { kind: number } }).detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
  });
  obs.observe({ entryTypes: ['gc'] });
  let changed = 0, seq = -1;
  // 300 read-backs of 640x160 are 120 MB: left to the collector, V8 collects the whole heap
  // after every 64 MB of them.
  for (let i = 20; i < 320; i++) {
    const f = render(T0 + i * 20);
    if (f.seq !== seq) changed++;
    seq = f.seq;
    await turn();
  }
  await turn();
  obs.disconnect();
  assert.ok(changed > 200, `the line scrolls (${changed} changed frames)`);
  assert.equal(major, 0, 'full collections during the scroll');
  assert.ok(process.memoryUsage().arrayBuffers - before < 16e6, 'read-back buffers are freed');
});
