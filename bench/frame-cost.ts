// What a frame of the real frame loop costs beyond drawing it. Two measures
// bench/render.ts puts in its table:
// - collections: GC events while the loop runs (a steady scroll should allocate nothing
//   the collector has to come for);
// - instructions per frame: the real FrameLoop on a virtual output under callgrind
//   (`valgrind --tool=callgrind`; perf's counters are not available in these VMs), counted
//   over a fixed number of frames after a warm-up, so a change can be judged without the
//   noise of a shared machine. Under valgrind the loop runs late, so every tick draws.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';
import { OutputRunner } from '../src/output/runner.js';
import { VirtualOutput } from '../src/output/virtual.js';
import type { Frame } from '../src/frame.js';
import { FrameLoop } from '../src/render/loop.js';
import { frameClock, type ClockFactory } from '../src/render/frame-clock.js';
import type { Compositor } from '../src/render/compositor.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

interface SpaceStats {
  spaceName: string;
  spaceUsedSize: number;
}
const YOUNG = new Set(['new_space', 'new_large_object_space']);
const youngUsed = (spaces: Array<{ space_name: string; space_used_size: number }>) =>
  spaces.reduce((sum, x) => sum + (YOUNG.has(x.space_name) ? x.space_used_size : 0), 0);
const youngUsedOf = (spaces: SpaceStats[]) =>
  spaces.reduce((sum, x) => sum + (YOUNG.has(x.spaceName) ? x.spaceUsedSize : 0), 0);

/**
 * Counts GC events from now on: scavenges and the rest (mark-compact, incremental marking, weak
 * callbacks), and the bytes allocated in the young generation meanwhile (what it holds at the
 * end, less what it held at the start, plus what each collection took out of it): the per-frame
 * allocation a scavenge count only samples.
 */
export function countCollections(): () => { scavenges: number; other: number; youngBytes: number } {
  let scavenges = 0,
    other = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if ((e as unknown as { detail?: { kind: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
        scavenges++;
      else other++;
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  const profiler = new v8.GCProfiler();
  profiler.start();
  const start = youngUsed(v8.getHeapSpaceStatistics());
  return () => {
    const end = youngUsed(v8.getHeapSpaceStatistics());
    const stats = (
      profiler.stop() as unknown as {
        statistics: Array<{
          beforeGC: { heapSpaceStatistics: SpaceStats[] };
          afterGC: { heapSpaceStatistics: SpaceStats[] };
        }>;
      }
    ).statistics;
    let collected = 0;
    for (const g of stats)
      collected += youngUsedOf(g.beforeGC.heapSpaceStatistics) - youngUsedOf(g.afterGC.heapSpaceStatistics);
    obs.disconnect();
    return { scavenges, other, youngBytes: end - start + collected };
  };
}

/**
 * Waits (at most `maxMs`) until the process itself is quiet: under 2 ms of CPU in a second.
 * For some ten seconds after start the collector works through the heap that loading tsx and
 * the modules left (concurrent marking and sweeping, 7-19 ms of CPU a second with no timer
 * at all); measured then, that lands in the first screen's CPU per frame (0.2 ms a frame at 40 fps).
 */
export async function settle(maxMs = 30_000): Promise<void> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    const c = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 1000));
    const d = process.cpuUsage(c);
    if (d.user + d.system < 2000) return;
  }
}

/**
 * ms of CPU a bare timer wake-up costs this process (a setTimeout chain every `periodMs` for
 * `seconds`): the floor under any frame of a loop that sleeps between frames. On the shared VMs
 * it is 0.14 ms for 32 k instructions (callgrind): the kernel's and the hypervisor's share, and
 * cold caches after each sleep, not node's.
 */
export async function wakeCost(seconds: number, periodMs: number): Promise<number> {
  await settle();
  let n = 0;
  const c = process.cpuUsage();
  const end = Date.now() + seconds * 1000;
  await new Promise<void>((done) => {
    const tick = () => {
      n++;
      if (Date.now() < end) setTimeout(tick, periodMs);
      else done();
    };
    setTimeout(tick, periodMs);
  });
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000 / n;
}

const quiet = { warn() {}, info() {} };

/**
 * The loop as bench/render.ts runs it: 50 fps, a virtual output taking every frame through
 * the OutputRunner, as the service's units hand frames over. `time` replaces the wall clock and
 * the native timer (backToBackCost's simulated time).
 */
export async function benchLoop(
  c: Compositor,
  fps: number,
  onSent?: () => void,
  time: { now?: () => number; clock?: ClockFactory } = {},
): Promise<FrameLoop> {
  const runner = new OutputRunner(new VirtualOutput(), quiet);
  await runner.start(c.unit.width, c.unit.height);
  const sink = onSent
    ? (f: Frame) => {
        const done = runner.submit(f);
        if (typeof done === 'boolean') onSent();
        else void done.then(onSent);
        return done;
      }
    : (f: Frame) => runner.submit(f);
  return new FrameLoop(c, sink, time.now ?? Date.now, { fps, clock: time.clock ?? frameClock() });
}

/**
 * Instructions per frame of `screen` ('led' or 'hd' of bench/render.ts), or undefined when
 * valgrind is not installed. Takes a minute or two: valgrind runs node some 50 times slower.
 */
export async function instructionsPerFrame(screen: string, frames = 100): Promise<number | undefined> {
  if (spawnSync('valgrind', ['--version']).status !== 0) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-callgrind-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${dir}/cg.%p`,
      process.execPath,
      '--import',
      'tsx',
      path.join(HERE, 'frame-cost-child.ts'),
      screen,
      String(frames),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let json = '';
  child.stdout.on('data', (d: Buffer) => {
    json += d;
  });
  const toggle = (on: boolean) => spawnSync('callgrind_control', ['-i', on ? 'on' : 'off', String(child.pid)]);
  for await (const line of createInterface({ input: child.stderr })) {
    if (line === 'READY') {
      toggle(true);
      child.stdin.write('go\n');
    }
    if (line === 'COUNTED') {
      toggle(false);
      child.stdin.write('go\n');
    }
  }
  await new Promise((r) => child.once('close', r));
  const counted = (JSON.parse(json || '{}') as { rendered?: number }).rendered;
  let ir = 0;
  for (const f of readdirSync(dir)) {
    const m = /^totals:\s*(\d+)/m.exec(readFileSync(path.join(dir, f), 'utf8'));
    if (m) ir += Number(m[1]);
  }
  rmSync(dir, { recursive: true, force: true });
  return counted && ir ? ir / counted : undefined;
}

/**
 * CPU (ms) a 20 ms period of `c`'s animation costs the real FrameLoop, OutputRunner and
 * virtual output with the sleeps taken out: the loop's clock fires in the next turn of the
 * event loop and moves a simulated time on by the delay it was armed with, so the frames
 * of `seconds` of simulated time are drawn back to back. What the loop adds to drawing with
 * warm caches and no wake-up; "CPU per frame" less this is what sleeping between frames costs.
 */
export async function backToBackCost(c: Compositor, fps: number, seconds: number): Promise<number> {
  let now = Date.now();
  const clock: ClockFactory = (callback) => {
    let pending: NodeJS.Immediate | undefined;
    const disarm = () => {
      if (pending) clearImmediate(pending);
      pending = undefined;
    };
    return {
      // At least a microsecond on: a delay under half a microsecond arms as 0 and would
      // find the frame not yet due, over and over.
      arm(us) {
        disarm();
        pending = setImmediate(() => {
          pending = undefined;
          now += Math.max(1, us) / 1000;
          callback();
        });
      },
      disarm,
      close: disarm,
    };
  };
  const loop = await benchLoop(c, fps, undefined, { now: () => now, clock });
  const run = async (ms: number) => {
    const end = now + ms;
    while (now < end) await new Promise((r) => setImmediate(r));
  };
  loop.start();
  await run(2000); // warm-up: the first frame paints everything, then the code is compiled
  const t0 = now,
    cpu0 = process.cpuUsage();
  await run(seconds * 1000);
  const cpu = process.cpuUsage(cpu0);
  loop.stop();
  return (cpu.user + cpu.system) / 1000 / ((now - t0) / (1000 / fps));
}
