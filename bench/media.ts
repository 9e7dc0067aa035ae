// Media area figures: CPU (% of one core) and memory of a 1920x1080 layout with a
// 640x360 video at 25 fps, against the same layout with the video's first frame as a still
// image, and of the layout with a video, an audio and a web area at once. Each runs as its
// own service process in this one run, one after the other, measured over the same period
// after the same settling time. CPU counts the service and everything it started (ffmpeg,
// Chromium), from /proc; memory is the service's RSS and the PSS of the whole tree (Chromium's
// processes share pages, which RSS would count several times). Audio goes to the null sink
// (MLDS_AUDIO_SINK=null: decoded in real time, no sound card needed).
//   node --import tsx bench/media.ts    (MLDS_BENCH_MEDIA_SECONDS, default 10)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { tree } from '../test/media/helpers.js';
import { waitForPort } from './core.js';
import { distStart } from './start.js';

const SECONDS = Number(process.env.MLDS_BENCH_MEDIA_SECONDS ?? 10);
const SETTLE_MS = 4000;
const ROUNDS = Number(process.env.MLDS_BENCH_MEDIA_ROUNDS ?? 2);

function kb(pid: number, file: string, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the tree over a period. Children that end during it are not counted
 * (a steady layout has none), so the figure is a little low rather than high.
 */
async function measure(
  root: number,
): Promise<{ cpuTree: number; cpuNode: number; rssNode: number; pssTree: number; processes: number }> {
  const before = new Map(tree(root).map((p) => [p.pid, p.cpu]));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const after = tree(root);
  let cpuTree = 0;
  for (const p of after) cpuTree += p.cpu - (before.get(p.pid) ?? 0);
  const node = after.find((p) => p.pid === root)!;
  return {
    cpuTree: (cpuTree / SECONDS) * 100,
    cpuNode: ((node.cpu - (before.get(root) ?? 0)) / SECONDS) * 100,
    rssNode: kb(root, 'status', 'VmRSS') / 1024,
    pssTree: after.reduce((s, p) => s + kb(p.pid, 'smaps_rollup', 'Pss'), 0) / 1024,
    processes: after.length,
  };
}

type Areas = Record<string, Record<string, unknown>>;

function layout(center: Areas): Areas {
  return {
    header: {
      coordinates: '0 0 1919 159',
      type: 'static',
      fontSize: '96',
      backgroundColor: '0 63 127',
      align: 'center',
      params: { dep: 'Departures' },
      defaultValue: 'dep',
    },
    ...center,
    lines: { coordinates: '0 520 1919 999', type: 'text', fontSize: '72', defaultValue: '175 Airport  12:05' },
    clock: { coordinates: '0 1000 1919 1079', type: 'date', fontSize: '60', align: 'center' },
  };
}

type Figures = Awaited<ReturnType<typeof measure>> & { frames: number };

/** Field by field, the median over the rounds. */
function median(xs: Figures[]): Figures {
  const mid = (k: keyof Figures) => {
    const v = xs.map((x) => x[k]).sort((a, b) => a - b);
    const h = v.length / 2;
    return v.length % 2 ? v[Math.floor(h)] : (v[h - 1] + v[h]) / 2;
  };
  return {
    cpuTree: mid('cpuTree'),
    cpuNode: mid('cpuNode'),
    rssNode: mid('rssNode'),
    pssTree: mid('pssTree'),
    processes: mid('processes'),
    frames: mid('frames'),
  };
}

async function run(dir: string, name: string, areas: Areas): Promise<Figures> {
  const config = {
    port: '9199',
    rateLimit: '100000',
    displays: {
      lcd: {
        displayIp: '127.0.0.1',
        displayPort: '9002',
        displayWidth: '1920',
        displayHeight: '1080',
        output: { driver: 'virtual' },
        layout: { board: areas },
      },
    },
  };
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  const svc = spawn(process.execPath, distStart(file, path.join(dir, `state-${name}`)), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MLDS_AUDIO_SINK: 'null' },
  });
  try {
    const port = await waitForPort(svc);
    const ok = await fetch(`http://127.0.0.1:${port}/mlds?id=lcd&layout=board`);
    if (ok.status !== 200) throw new Error(`${name}: /mlds answered ${ok.status}`);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const frames = async () =>
      (
        (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as {
          displays: Array<{ frames: { rendered: number } }>;
        }
      ).displays[0].frames.rendered;
    const f0 = await frames();
    const m = await measure(svc.pid!);
    return { ...m, frames: ((await frames()) - f0) / SECONDS };
  } finally {
    await new Promise((r) => {
      svc.once('exit', r);
      svc.kill('SIGTERM');
    });
  }
}

export async function benchMedia(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-bench-media-'));
  const images = path.join(dir, 'images');
  mkdirSync(images);
  const ff = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25:duration=10',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    path.join(images, 'clip.mp4'),
  );
  ff('-i', path.join(images, 'clip.mp4'), '-frames:v', '1', path.join(images, 'still.png'));
  ff('-f', 'lavfi', '-i', 'sine=frequency=440:duration=5', '-c:a', 'libmp3lame', path.join(images, 'tone.mp3'));
  const page = createServer((_req, res) =>
    res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end(
        '<!doctype html><body style="margin:0;font:40px ' +
          'sans-serif;background:#036;color:#fff"><h1>Timetable</h1><p>175 Airport 12:05</p><p>128 Centrum ' +
          '12:07</p></body>',
      ),
  );
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  const clip = { coordinates: '0 160 639 519', type: 'video', params: { clip: 'clip.mp4' }, defaultValue: 'clip.mp4' };
  const still = {
    coordinates: '0 160 639 519',
    type: 'image',
    params: { still: 'still.png' },
    defaultValue: 'still.png',
  };
  const web = { coordinates: '640 160 1279 519', type: 'web', params: { page: url }, defaultValue: url };
  const audio = {
    coordinates: '1280 160 1289 169',
    type: 'audio',
    params: { tone: 'tone.mp3' },
    defaultValue: 'tone.mp3',
  };
  try {
    const rounds: Array<Record<'s' | 'v' | 'all', Figures>> = [];
    const load0 = loadavg()[0];
    for (let i = 0; i < ROUNDS; i++) {
      // Interleaved, so a burst of other work on the shared machine does not land on one configuration only.
      rounds.push({
        s: await run(dir, `still${i}`, layout({ clip: still })),
        v: await run(dir, `video${i}`, layout({ clip })),
        all: await run(dir, `all${i}`, layout({ clip, web, audio })),
      });
    }
    const load1 = loadavg()[0];
    const [s, v, all] = (['s', 'v', 'all'] as const).map((k) => median(rounds.map((r) => r[k])));
    const spread = (k: 's' | 'v' | 'all') => rounds.map((r) => r[k].cpuTree.toFixed(1)).join(' / ');
    const row = (label: string, r: Figures) =>
      `| ${label} | ${r.cpuTree.toFixed(1)} % | ${r.cpuNode.toFixed(1)} % | ${r.frames.toFixed(1)} | ` +
      `${r.rssNode.toFixed(1)} MB | ${r.pssTree.toFixed(1)} MB | ${r.processes} |`;
    return [
      `A 1920x1080 display: a static header, a 640x360 area, a text and a clock (nothing scrolls). Each ` +
        `configuration runs as its own service, measured for ${SECONDS} s after ${SETTLE_MS / 1000} s of settling.`,
      '',
      '| 640x360 area holds | CPU, service and children (% of one core) | CPU, service alone | frames drawn per ' +
        's | service RSS | PSS, service and children | processes |',
      '|---|---|---|---|---|---|---|',
      row("a still image (the video's first frame)", s),
      row('the video, 25 fps, looping', v),
      row('the video, plus a 640x360 web area and an audio area (null sink)', all),
      '',
      `The video against the still image: CPU **${(v.cpuTree / Math.max(0.1, s.cpuTree)).toFixed(1)}x** ` +
        `(+${(v.cpuTree - s.cpuTree).toFixed(1)} points of one core, of which the service itself ` +
        `+${(v.cpuNode - s.cpuNode).toFixed(1)}), memory +${(v.pssTree - s.pssTree).toFixed(1)} MB PSS (service ` +
        `RSS +${(v.rssNode - s.rssNode).toFixed(1)} MB). The frame loop draws ${v.frames.toFixed(1)} frames a ` +
        `second with the video and ${s.frames.toFixed(1)} with the still image (the clock).`,
      `Video, web and audio at once: CPU ${all.cpuTree.toFixed(1)} % of one core, ${all.pssTree.toFixed(1)} MB ` +
        `PSS in ${all.processes} processes (Chromium's are most of them).`,
      `Medians of ${ROUNDS} interleaved rounds; CPU of each round (service and children): still ${spread('s')}, ` +
        `video ${spread('v')}, all three ${spread('all')} %. Load average ${load0.toFixed(1)} before, ` +
        `${load1.toFixed(1)} after (2 cores shared with other work).`,
    ].join('\n');
  } finally {
    page.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchMedia());
}
