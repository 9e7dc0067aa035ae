import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from './helpers.js';

// Run in a child whose young generation (64 MB) outlasts the measured frames, so no collection
// runs in between and the growth of the heap is what the frames allocated.
const CHILD = `
  import { Compositor } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/render/compositor.ts')).href)};
  import { area, rig, T0 } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'test/render/helpers.ts')).href)};
  import { PerformanceObserver } from 'node:perf_hooks';
  const line = area({ id: 'line', fontSize: 96 });
  const { compositor, set } = rig([line]);
  set(line, { text: 'Intercity 1234 to Amsterdam Centraal via Utrecht, Schiphol Airport and Leiden ', setAt: T0 });
  // The rig's render copies each frame; the loop renders the compositor's own buffer.
  const render = (t) => Compositor.prototype.render.call(compositor, t);
  const turn = () => new Promise((r) => setImmediate(r));
  let t = T0;
  // Warm-up: fonts, strips and optimised code.
  for (let i = 0; i < 400; i++) { render(t); compositor.nextChange(t); t += 20; await turn(); }
  let gcs = 0;
  const obs = new PerformanceObserver((list) => { gcs += list.getEntries().length; });
  obs.observe({ entryTypes: ['gc'] });
  const before = process.memoryUsage().heapUsed;
  let changed = 0, seq = -1;
  for (let i = 0; i < 300; i++) {
    const f = render(t);
    compositor.nextChange(t);
    if (f.seq !== seq) changed++;
    seq = f.seq;
    t += 20;
    await turn();
  }
  const bytes = process.memoryUsage().heapUsed - before;
  await turn();
  obs.disconnect();
  process.stdout.write(JSON.stringify({ perFrame: bytes / 300, changed, gcs }));
`;

test(
  'a steady scroll allocates little per frame: under 2.2 KB ' +
    'of heap a frame rendered a turn apart (1.75 KB measured)',
  () => {
    const out = execFileSync(
      process.execPath,
      ['--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', '--input-type=module', '-e', CHILD],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const { perFrame, changed, gcs } = JSON.parse(out) as { perFrame: number; changed: number; gcs: number };
    assert.ok(changed > 200, `the line scrolls (${changed} changed frames of 300)`);
    assert.equal(
      gcs,
      0,
      'no collection ran while measuring (the growth of the heap would not be what the frames allocated)',
    );
    // Each frame needs some: the frame and its damage, the turn of the event loop (node's own
    // and this test's promise), numbers of unoptimised code. The read-back makes none since it
    // reads cairo's pixels in place. Key strings, rectangles, arrays and closures made
    // again for every frame were twice as much.
    assert.ok(perFrame > 0 && perFrame < 2200, `${Math.round(perFrame)} bytes a frame`);
  },
);
