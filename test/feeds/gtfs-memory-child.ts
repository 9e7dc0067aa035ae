// Run by gtfs-static-memory.test.ts in a process of its own: reads the GTFS zip named on the
// command line for stop S1 and prints the trips it kept and the peak growth of the resident set.
import { loadGtfs } from '../../src/feeds/gtfs-static.js';

const file = process.argv[2];
global.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const sample = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const started = performance.now();
const schedule = await loadGtfs(file, new Set(['S1']));
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(sample);
process.stdout.write(
  JSON.stringify({
    trips: [...schedule.trips.keys()].sort(),
    stopTimes: schedule.size,
    growthMB: (peak - base) / 2 ** 20,
    seconds: (performance.now() - started) / 1000,
  }),
);
