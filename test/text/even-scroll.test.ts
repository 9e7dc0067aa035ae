import assert from 'node:assert/strict';
import path from 'node:path';
import { mock, test } from 'node:test';
import type { AreaConfig } from '../../src/config/types.js';
import type { Frame } from '../../src/output/types.js';
import { SCROLL_SPEED_PX_PER_S } from '../../src/render/content/scroll.js';
import { FrameLoop } from '../../src/render/loop.js';
import { area, FONT_DIR, rig, T0 } from '../render/helpers.js';

const W = 240;
const TEXT = 'Lotnisko Chopina - Airport, Dworzec Centralny, Plac Zawiszy, Okecie';

/** How far frame b is frame a moved left (searching 0..40 px); -1 when it is no such shift. */
function shift(a: Uint8Array, b: Uint8Array, h: number): number {
  for (let dx = 0; dx <= 40; dx++) {
    let same = true;
    for (let y = 0; y < h && same; y++) {
      for (let x = 0; x + dx < W; x++)
        if (b[(y * W + x) * 4] !== a[(y * W + x + dx) * 4]) {
          same = false;
          break;
        }
    }
    if (same) return dx;
  }
  return -1;
}

/**
 * Runs the real frame loop on mocked timers (one virtual ms per tick) until it has sent
 * `n` frames of a scrolling area, and returns each frame's offset from the first: the sum
 * of the shifts between consecutive frames.
 */
async function offsets(a: AreaConfig, n: number, fps = 50): Promise<{ offsets: number[]; times: number[] }> {
  const r = rig([a], { width: W, height: 16, fps });
  r.set(a, { text: TEXT, setAt: T0 });
  let now = T0;
  const out: number[] = [];
  const at: number[] = [];
  let prev: Uint8Array | undefined;
  const loop = new FrameLoop(
    r.compositor,
    async (f: Frame) => {
      const d = prev ? shift(prev, f.data, 16) : 0;
      out.push(d < 0 ? NaN : (out.at(-1) ?? 0) + d);
      at.push(now);
      prev = f.data.slice();
      return true;
    },
    () => now,
    { fps },
  );
  mock.timers.enable({ apis: ['setTimeout', 'setImmediate'] });
  try {
    loop.start();
    while (out.length < n + 1) {
      now += 1;
      mock.timers.tick(1);
      await Promise.resolve();
    }
  } finally {
    loop.stop();
    mock.timers.reset();
  }
  // The first frame is the empty area before the head enters.
  return { offsets: out.slice(1, n + 1), times: at.slice(1, n + 1) };
}

for (const [label, p] of [
  ['TrueType', {}],
  ['a BDF font', { font: path.join(FONT_DIR, '7x13.bdf'), fontSize: 13 }],
] as const) {
  test(`${label}: every frame of a scroll moves the same whole number of pixels, at every scrollSpeed`, async () => {
    for (let speed = 0; speed <= 8; speed++) {
      const a = area({ id: 'a', width: W, height: 16, fontSize: 14, scrollSpeed: speed, ...p });
      const { offsets: o, times } = await offsets(a, 200);
      const steps = new Set(o.slice(1).map((x, i) => x - o[i]));
      assert.equal(steps.size, 1, `speed ${speed}: steps ${[...steps].join(', ')}`);
      const [step] = steps;
      assert.ok(step > 0, `speed ${speed} moves`);
      // And the speed is the table's: the 199 moves took 199 * step / v seconds.
      const v = SCROLL_SPEED_PX_PER_S[speed];
      assert.ok(
        Math.abs(times[199] - times[0] - (199 * step * 1000) / v) <= 1,
        `speed ${speed}: ${199 * step} px in ${times[199] - times[0]} ms`,
      );
      assert.ok(
        step * 50 >= v && (step - 1) * 50 < v,
        `speed ${speed}: step ${step} is the smallest that keeps up with ${v} px/s at 50 fps`,
      );
    }
  });
}
