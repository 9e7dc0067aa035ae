// The process bench/frame-cost.ts runs under callgrind: the real FrameLoop on a virtual output
// for a fixed number of frames after a warm-up, waiting for a line on stdin before and after
// them (the parent turns callgrind's instrumentation on and off meanwhile).
//   node --import tsx bench/frame-cost-child.ts led|hd FRAMES
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { preloadImage } from '../src/render/images.js';
import { benchLoop } from './frame-cost.js';
import { compositorFor, makeGif, screens } from './render.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

async function child(screen: string, frames: number): Promise<void> {
  const gif = makeGif(mkdtempSync(path.join(tmpdir(), 'mlds-bench-')));
  await preloadImage(gif);
  await preloadImage(path.join(HERE, '../examples/images/logo.png'));
  const s = screens(gif)[screen as 'led' | 'hd'];
  let wake: (() => void) | undefined;
  const loop = await benchLoop(compositorFor(s, Date.now() - 2000), 50, () => wake?.());
  const sent = () =>
    new Promise<void>((r) => {
      wake = r;
    });
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  loop.start();
  // Warm-up: the first frames paint everything, decode fonts and compile.
  while (loop.stats().rendered < 30) await sent();
  process.stderr.write('READY\n');
  await lines.next();
  const start = loop.stats().rendered;
  while (loop.stats().rendered < start + frames) await sent();
  const rendered = loop.stats().rendered - start;
  process.stderr.write('COUNTED\n');
  await lines.next();
  loop.stop();
  process.stdout.write(JSON.stringify({ rendered }));
  process.exit(0);
}

await child(process.argv[2] ?? 'led', Number(process.argv[3] ?? 100));
