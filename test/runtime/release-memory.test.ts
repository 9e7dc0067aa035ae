// The native helper's releaseMemory(): memory freed after a burst of allocation goes back to
// the kernel (glibc keeps it otherwise), and the service does it once after start.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { NATIVE_PATH, nativeHelperProblem } from '../../src/native/helper.js';
import { underEmulation } from '../helpers/emulation.js';
import { skipReason } from '../helpers/skip.js';

const skip =
  skipReason(nativeHelperProblem()) ??
  underEmulation("process.memoryUsage.rss() reads 0 there (qemu-user's /proc/self/stat), so no drop can be seen");

test(
  'releaseMemory() returns freed heap memory: RSS drops after a burst of small allocations is let go',
  { skip },
  () => {
    const out = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '-e',
        `
    const n = require(${JSON.stringify(NATIVE_PATH)});
    let keep = [];
    for (let i = 0; i < 40000; i++) keep.push(Buffer.allocUnsafeSlow(2048)); // malloc'd, below the mmap threshold
    keep = null;
    gc();
    const before = process.memoryUsage.rss();
    n.releaseMemory();
    console.log(JSON.stringify({ before, after: process.memoryUsage.rss() }));`,
      ],
      { encoding: 'utf8' },
    );
    const { before, after } = JSON.parse(out) as { before: number; after: number };
    assert.ok(
      before - after > 40e6,
      `RSS ${(before / 1e6).toFixed(1)} -> ${(after / 1e6).toFixed(1)} MB: at least 40 of the 80 MB let go come back`,
    );
  },
);
