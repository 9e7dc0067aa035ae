// Output benchmarks: pixel conversion against memcpy, Colorlight packetize+send against the
// 1 Gbit/s wire time, and 99 DDP units at 30 fps on loopback. `benchOutputs()` returns markdown
// lines for docs/performance.md; run alone with `node --import tsx bench/outputs.ts`.
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { nativeHelperProblem, nativeHelper } from '../src/native/helper.js';
import { brightnessTable, FORMATS } from '../src/output/pixel-format.js';
import { ColorlightOutput } from '../src/output/colorlight.js';
import { frameLayout } from '../src/output/colorlight-protocol.js';
import { DdpOutput } from '../src/output/ddp.js';
import { OutputRunner } from '../src/output/runner.js';
import type { Frame } from '../src/output/types.js';
import { createVethNs, netnsUnavailable } from '../test/output/netns.js';

const quiet = { warn: () => undefined, info: () => undefined };

function pattern(width: number, height: number): Frame {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * 131 + (i >> 12)) & 255;
  return { width, height, data, seq: 1 };
}

/** Median time of `runs` calls after a warm-up, in ms. */
async function timeMs(runs: number, fn: () => unknown): Promise<number> {
  for (let i = 0; i < 5; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    await fn();
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  return t.sort((a, b) => a - b)[Math.floor(t.length / 2)];
}

async function conversion(): Promise<string[]> {
  const problem = nativeHelperProblem();
  if (problem) return [`- conversion: not measured (${problem})`];
  const n = nativeHelper(),
    w = 1920,
    h = 1080,
    f = pattern(w, h),
    bytes = w * h * 4;
  const copy = new Uint8Array(bytes),
    d32 = new Uint8Array(bytes),
    d16 = new Uint8Array(w * h * 2);
  const memcpy = await timeMs(100, () => copy.set(f.data));
  const rows: string[] = [
    '| 1920x1080 RGBA (8.3 MB) | ms | GB/s (input bytes) | vs memcpy (target >= 0.5) |',
    '|---|---|---|---|',
    `| memcpy (TypedArray.set) | ${memcpy.toFixed(3)} | ${(bytes / memcpy / 1e6).toFixed(1)} | 1.00 |`,
  ];
  for (const [name, dst, fmt, stride] of [
    ['RGB565', d16, FORMATS.RGB565, w * 2],
    ['XRGB8888', d32, FORMATS.XRGB8888, w * 4],
  ] as const) {
    const ms = await timeMs(100, () => n.convert(f.data, w, h, dst, 0, stride, fmt));
    rows.push(
      `| RGBA to ${name} | ${ms.toFixed(3)} | ${(bytes / ms / 1e6).toFixed(1)} | ${(memcpy / ms).toFixed(2)} |`,
    );
  }
  // Linear-light tables as fbdev uses them (50 % is the target row; lower percentages have a
  // longer toe to look up), and a table no line fits, which takes the byte-by-byte loop that
  // every table took before the SIMD path (native/src/brightness.cc).
  const tables: Array<[string, Uint8Array]> = [
    ['with brightness 50 %', brightnessTable(50)!],
    ['with brightness 10 %', brightnessTable(10)!],
    ['with brightness 1 %', brightnessTable(1)!],
    ['with an arbitrary table (byte lookups, the old path)', new Uint8Array(256).map((_, i) => (i * 7919) % 251)],
  ];
  for (const [name, lut] of tables) {
    const ms = await timeMs(50, () => n.convert(f.data, w, h, d32, 0, w * 4, FORMATS.XRGB8888, lut));
    const mbPerMs = (bytes / ms / 1e6).toFixed(1);
    rows.push(`| RGBA to XRGB8888 ${name} | ${ms.toFixed(3)} | ${mbPerMs} | ${(memcpy / ms).toFixed(2)} |`);
  }
  return rows;
}

async function colorlight(): Promise<string[]> {
  const problem = netnsUnavailable() ?? nativeHelperProblem();
  if (problem) return [`- Colorlight: not measured (${problem})`];
  const v = createVethNs('bn');
  const out = new ColorlightOutput(v.host, { firmwareVersion: 13 });
  try {
    await out.open();
    const rows = [
      '| Colorlight frame | packets | bytes on the wire | 1 Gbit/s wire time ms | packetize+send ms | ratio ' +
        '(target <= 2) |',
      '|---|---|---|---|---|---|',
    ];
    for (const size of [256, 512]) {
      const f = pattern(size, size);
      const { count, bytes } = frameLayout(size, size, true);
      // Preamble+SFD 8, FCS 4, inter-frame gap 12 bytes per packet; frames under 60 bytes are padded.
      const wire = bytes + count * 24;
      const wireMs = ((wire * 8) / 1e9) * 1e3;
      // A new whole picture each time (no damage): an output skips a frame it already shows.
      let seq = 1;
      const ms = await timeMs(50, () => out.send({ ...f, seq: ++seq }));
      rows.push(
        `| ${size}x${size} | ${count} | ${wire} | ${wireMs.toFixed(2)} | ${ms.toFixed(2)} | ` +
          `${(ms / wireMs).toFixed(2)} |`,
      );
    }
    return rows;
  } finally {
    await out.close();
    v.destroy();
  }
}

/** Counts complete pictures (PUSH packets) per port in a separate process, as a real receiver would. */
const RECEIVER = `
import { createSocket } from 'node:dgram';
const ports = []; let pushes = 0, packets = 0;
for (let i = 0; i < Number(process.argv.at(-1)); i++) {
  const s = createSocket({ type: 'udp4', recvBufferSize: 4 << 20 });
  s.on('message', (m) => { packets++; if (m[0] & 1) pushes++; });
  await new Promise((r) => s.bind(0, '127.0.0.1', r));
  ports.push(s.address().port);
}
process.send({ ports });
process.on('message', (m) => { if (m === 'count') process.send({ pushes, packets }); else process.exit(0); });
`;

async function ddp(native: boolean, units = 99, fps = 30, seconds = 5): Promise<string[]> {
  const rx = fork('--input-type=module', ['-e', RECEIVER, String(units)], { execArgv: [] });
  try {
    const { ports } = await new Promise<{ ports: number[] }>((r) =>
      rx.once('message', (m) => r(m as { ports: number[] })),
    );
    const count = () =>
      new Promise<{ pushes: number; packets: number }>((r) => {
        rx.once('message', (m) => r(m as never));
        rx.send('count');
      });
    const runners = ports.map((p) => new OutputRunner(new DdpOutput('127.0.0.1', p, { native }), quiet));
    await Promise.all(runners.map((r) => r.start(128, 64)));
    const frame = pattern(128, 64);
    const before = await count();
    const cpu0 = process.cpuUsage(),
      t0 = performance.now();
    let sent = 0,
      late = 0;
    for (let tick = 0; tick < fps * seconds; tick++) {
      const due = t0 + (tick * 1000) / fps;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else late++;
      // Each tick a new whole picture (no damage), as a 30 fps animation without damage tracking sends.
      const ok = await Promise.all(runners.map((r) => r.submit({ ...frame, seq: tick + 2 })));
      sent += ok.filter(Boolean).length;
    }
    // The last tick starts 1/fps before the nominal end: count the whole nominal span.
    const wall = Math.max(seconds, (performance.now() - t0) / 1000);
    const cpu = process.cpuUsage(cpu0);
    await new Promise((r) => setTimeout(r, 200));
    const after = await count();
    const delivered = after.pushes - before.pushes;
    await Promise.all(runners.map((r) => r.stop()));
    return [
      `| DDP ${units} units of 128x64 at ${fps} fps, ${seconds} s on loopback, ` +
        `${native ? 'native sendmmsg' : 'node:dgram (no helper)'} | value |`,
      '|---|---|',
      `| frames submitted per second (target ${units * fps}) | ${(sent / wall).toFixed(0)} |`,
      `| frames delivered per second (PUSH packets received) | ${(delivered / wall).toFixed(0)} (${delivered} of ` +
        `${sent} submitted) |`,
      `| packets per second | ${((after.packets - before.packets) / wall).toFixed(0)} |`,
      `| sender CPU (user+system, % of one core) | ${(((cpu.user + cpu.system) / 1e6 / wall) * 100).toFixed(1)} |`,
      `| ticks that started late | ${late} of ${fps * seconds} |`,
    ];
  } finally {
    rx.send('exit');
  }
}

export async function benchOutputs(): Promise<string> {
  const parts = [
    `Load average at the start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (2 cores, shared).`,
    '',
    'Conversion: the native helper on one 1920x1080 RGBA frame, median of 100 runs, against',
    'TypedArray.set of the same bytes (target at least 0.5 of memcpy). Colorlight: packetize and',
    'sendmmsg one frame (firmware 13 layout) on a veth pair, median of 50, against the time those',
    'packets take on a 1 Gbit/s wire with preamble, FCS and gap (target at most 2x). DDP: one',
    'receiver process with 99 UDP sockets counts PUSH packets.',
    '',
    ...(await conversion()),
    '',
    ...(await colorlight()),
    '',
    ...(await ddp(true)),
    '',
    ...(await ddp(false)),
    '',
  ];
  return parts.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --conversion: the conversion table alone (seconds instead of the DDP and Colorlight runs).
  console.log(process.argv.includes('--conversion') ? (await conversion()).join('\n') : await benchOutputs());
}
