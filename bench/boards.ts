// Departure boards: the cost of a board's minute tick (every countdown of a four-row board
// changes) laid out through the board's cell cache, against laying the whole board out afresh,
// in the same run; and the frames the 1080p reference screen misses while a 5 MB TripUpdates
// feed is decoded every second beside it (in the event loop, and in the feeds' decoding thread
// as the service does it), against the same screen alone.
// `benchBoards()` returns markdown lines; run alone with `node --import tsx bench/boards.ts`.
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FeedDecoder } from '../src/feeds/decoder.js';
import { decodeTripUpdates } from '../src/feeds/gtfs-rt.js';
import { preloadImage } from '../src/render/images.js';
import { measuredUnits } from '../src/text/faces.js';
import { layoutBlock } from '../src/text/layout.js';
import { bigFeed } from './feeds.js';
import { makeGif, realTime, screens } from './render.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = 30;
const SECONDS = Number(process.env.MLDS_BENCH_BOARD_SECONDS ?? 10);

const doc = (rows: string[]) => ({
  pages: [{ lines: rows.map((t) => ({ spans: [{ text: t, font: 0 }] })) }],
  multi: false,
});
const ROWS = ['12\tHauptbahnhof\t7 min', '5\tZoo\t12 min', '101\tFlughafen Terminal 1\t1 min', '7\tMesse Nord\t20 min'];
const TICKED = ['12\tHauptbahnhof\t6 min', '5\tZoo\t11 min', '101\tFlughafen Terminal 1\tnow', '7\tMesse Nord\t19 min'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function minuteTick(
  font: string,
  fontSize: number,
): { whole: number; tick: number; wholeUnits: number; tickUnits: number } {
  const options = (cellCache?: Map<unknown, unknown>) => ({
    width: 192,
    height: 4 * (fontSize + 1),
    font,
    fonts: [],
    fontSize,
    wrap: false,
    valign: 'top' as const,
    align: 'left' as const,
    overflow: 'pages' as const,
    pageMs: 3000,
    crisp: true,
    color: { r: 255, g: 170, b: 0 },
    rtl: false,
    graphicSize: () => undefined,
    columns: [
      { width: 30, align: 'left' as const },
      { width: 112, align: 'left' as const },
      { width: 50, align: 'right' as const },
    ],
    ...(cellCache ? { cellCache } : {}),
  });
  const whole: number[] = [],
    tick: number[] = [];
  let wholeUnits = 0,
    tickUnits = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let u = measuredUnits(),
      t = performance.now();
    layoutBlock(doc(ROWS), options() as Parameters<typeof layoutBlock>[1]);
    whole.push(performance.now() - t);
    wholeUnits = measuredUnits() - u;
    const cache = new Map();
    layoutBlock(doc(ROWS), options(cache) as Parameters<typeof layoutBlock>[1]);
    u = measuredUnits();
    t = performance.now();
    layoutBlock(doc(TICKED), options(cache) as Parameters<typeof layoutBlock>[1]);
    tick.push(performance.now() - t);
    tickUnits = measuredUnits() - u;
  }
  return { whole: median(whole), tick: median(tick), wholeUnits, tickUnits };
}

export async function benchBoards(): Promise<string> {
  const lines = [
    `A four-row board (route, destination, countdown) laid out whole against its minute tick (every countdown ` +
      `changes) through the board's cell cache, median of ${ROUNDS}:`,
    '',
    '| font | whole board | minute tick | tick / whole | measuring units whole / tick |',
    '|---|---|---|---|---|',
  ];
  for (const [name, file, size] of [
    ['7x13.bdf', '7x13.bdf', 13],
    ['DejaVuSans 13 px', 'DejaVuSans.ttf', 13],
  ] as const) {
    const m = minuteTick(path.join(ROOT, 'fonts', file), size);
    lines.push(
      `| ${name} | ${m.whole.toFixed(3)} ms | ${m.tick.toFixed(3)} ms | ${(m.tick / m.whole).toFixed(2)} | ` +
        `${m.wholeUnits} / ${m.tickUnits} |`,
    );
  }

  const gif = makeGif(mkdtempSync(path.join(tmpdir(), 'mlds-bench-')));
  const { hd } = screens(gif);
  await preloadImage(gif);
  await preloadImage(path.join(ROOT, 'examples/images/logo.png'));
  const { buf, trips } = bigFeed(5 * 2 ** 20);
  const board = { trips: new Set(trips.filter((_, i) => i % 50 === 0)), stops: new Set(['stop-1', 'stop-2']) };
  // Beside the frame loop, a poll every second: decoded in the event loop (in 4 ms slices), and
  // as the service does it, in the feeds' decoding thread (each poll's body is a fresh copy).
  const besides = async (decode: () => Promise<unknown>) => {
    let polls = 0,
      polling = true;
    const poller = (async () => {
      while (polling) {
        const t = performance.now();
        await decode();
        polls++;
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - t))));
      }
    })();
    // The event loop's delays once the screen is drawn (its first frame paints everything).
    const held = monitorEventLoopDelay({ resolution: 1 });
    held.enable();
    const warm = setTimeout(() => held.reset(), 2000);
    const run = await realTime(hd, SECONDS);
    held.disable();
    clearTimeout(warm);
    polling = false;
    await poller;
    return { ...run, polls, p99Ms: held.percentile(99) / 1e6 };
  };
  const alone = await besides(async () => undefined);
  const inLoop = await besides(() => decodeTripUpdates(buf, board));
  const decoder = new FeedDecoder(60_000);
  const inThread = await besides(() => decoder.tripUpdates(new Uint8Array(buf), board.trips, board.stops));
  await decoder.close();
  lines.push(
    '',
    `${hd.name}, ${SECONDS} s of the real frame loop, alone and while a ${(buf.length / 2 ** 20).toFixed(1)} MB ` +
      `TripUpdates feed is decoded every second in the same process:`,
    '',
    '| | decodes | frames sent | frames missed | event-loop delay p99 | CPU % of one core |',
    '|---|---|---|---|---|---|',
    ...(
      [
        ['the screen alone', alone],
        ['decoded in the event loop, in 4 ms slices', inLoop],
        ["decoded in the feeds' thread (the service)", inThread],
      ] as const
    ).map(
      ([name, r]) =>
        `| ${name} | ${r === alone ? '' : r.polls} | ${r.sent} | ${r.missed} | ${r.p99Ms.toFixed(1)} ms | ` +
        `${r.cpu.toFixed(1)} |`,
    ),
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchBoards());
