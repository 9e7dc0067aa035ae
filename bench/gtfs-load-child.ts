// Run by bench/feeds.ts in a process of its own, so its RSS is the schedule's alone:
//   node --import tsx bench/gtfs-load-child.ts inflate|read ZIP STOP
// `inflate` (the baseline) inflates every file of the zip and drops the bytes; `read` reads the
// schedule for STOP as the service does (in the schedule's thread, from dist/ as `npm run bench`
// builds it: from source, the thread would first compile its modules under tsx). Prints the
// seconds taken, the CPU time of every thread, the peak growth of the RSS, the RSS kept after,
// and the longest the event loop was held.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import yauzl from 'yauzl';

const built = new URL('../dist/feeds/schedule-reader.js', import.meta.url).href;
const { ScheduleReader } = (await import(built)) as typeof import('../src/feeds/schedule-reader.js');

async function inflate(file: string): Promise<void> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  try {
    for await (const e of zip.eachEntry()) for await (const chunk of await zip.openReadStreamPromise(e)) void chunk;
  } finally {
    zip.close();
  }
}

const [mode, file, stop] = process.argv.slice(2);
global.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const sample = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const started = performance.now();
const cpu = process.cpuUsage();
let kept = { trips: 0, stopTimes: 0 };
let schedule: unknown;
if (mode === 'inflate') await inflate(file);
else {
  const reader = new ScheduleReader();
  const s = await reader.read(file, [stop], 4096 * 2 ** 20);
  kept = { trips: s.trips.size, stopTimes: s.size };
  schedule = s;
  await reader.close();
}
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
delay.disable();
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
global.gc?.();
process.stdout.write(
  JSON.stringify({
    ...kept,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakMB: (peak - base) / 2 ** 20,
    keptMB: (process.memoryUsage().rss - base) / 2 ** 20,
    blockMs: delay.max / 1e6,
    held: schedule !== undefined || mode === 'inflate',
  }),
);
