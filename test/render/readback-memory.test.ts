import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { test } from 'node:test';
import { Compositor } from '../../src/render/compositor.js';
import { freeBuffer, HOLD_CAP } from '../../src/render/free-buffer.js';
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

test('buffers handed over without a turn of the event loop stop at HOLD_CAP: the rest are left to the collector', async () => {
  const size = 4 * 1024 * 1024;
  const handOver = (n: number) => {
    let detached = 0;
    for (let i = 0; i < n; i++) {
      const b = new ArrayBuffer(size);
      freeBuffer(b);
      if (b.byteLength === 0) detached++;
    }
    return detached;
  };
  // Transferred memory waits for the turn (1,000 renders back to back held 2 GB without the cap).
  const first = handOver(40);
  assert.ok(first > 0 && first * size <= HOLD_CAP, `${first} buffers of 4 MB held`);
  await new Promise((r) => setImmediate(r));
  assert.ok(handOver(1) === 1, 'after a turn, buffers are freed again');
});
