// Core service figures: /mlds throughput and latency against a bare node:http handler
// (both in their own process, both loaded by autocannon from this one), the time to
// render a frame of the example LED display, and the resident memory of an idle service.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { unitEnvironment, distStart } from './start.js';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { exampleConfig } from '../test/helpers/service.js';
import { createCanvas } from 'canvas';
import { loadConfig } from '../src/config/load.js';
import { offlineController } from '../src/preview/offline.js';
import { Compositor } from '../src/render/compositor.js';

const REPO = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.MLDS_BENCH_HTTP_SECONDS ?? 5);
const ROUNDS = Number(process.env.MLDS_BENCH_HTTP_ROUNDS ?? 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

export async function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      const m = /listening on port (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${buf}`)));
  });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const BARE = `
const http = require('node:http');
const s = http.createServer((req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.end('{"result":"command received"}');
});
s.listen(0, '127.0.0.1', () => console.log('listening on port ' + s.address().port));`;

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function load(port: number, pid: number, connections: number, paths: string[], seconds = SECONDS) {
  let i = 0;
  const cpu0 = cpuSeconds(pid);
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  const usPerRequest = ((cpuSeconds(pid) - cpu0) * 1e6) / Math.max(1, r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, usPerRequest };
}

type Load = Awaited<ReturnType<typeof load>>;

/**
 * /mlds against the bare handler, and /mlds against /mlds/: the same route and middleware
 * reached through koa's router, which the early listener (src/http/early.ts) leaves out for
 * exactly /mlds, so the difference is what answering ahead of the router saves against the
 * whole command. Rounds alternate their order so that load from other processes falls on
 * every target alike.
 */
async function commandFigures(barePort: number, barePid: number, svcPort: number, svcPid: number): Promise<string[]> {
  // Four different departures, so every request changes the screen and is rendered.
  const paths = (door: string) =>
    ['175', '128', 'N12', '24'].map(
      (route, i) =>
        `${door}?id=led1&layout=departure` +
        `&route=${route}&destination=Destination%20number%20${i}%20via%20Centrum&inumber=${i}`,
    );
  const load0 = loadavg()[0];
  // Warmed up first, both ways in: the first round measures neither's first compilation.
  for (const door of ['/mlds', '/mlds/']) await load(svcPort, svcPid, 1, paths(door), 1);
  const rows: string[] = [];
  const saved: string[] = [];
  for (const c of [1, 50]) {
    const runs = { bare: [] as Load[], early: [] as Load[], router: [] as Load[] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = (['bare', 'early', 'router'] as const).slice();
      if (round % 2) order.reverse();
      for (const t of order) {
        runs[t].push(
          t === 'bare'
            ? await load(barePort, barePid, c, ['/mlds?id=led1'])
            : await load(svcPort, svcPid, c, paths(t === 'early' ? '/mlds' : '/mlds/')),
        );
      }
    }
    const m = (t: keyof typeof runs, k: keyof Load) => median(runs[t].map((r) => r[k]));
    const ratio = (a: number, b: number) => `**${(a / b).toFixed(2)}**`;
    const errors = [...runs.early, ...runs.router].reduce((n, r) => n + r.errors, 0);
    const [bareCpu, cpu, routerCpu] = (['bare', 'early', 'router'] as const).map((t) => m(t, 'usPerRequest'));
    rows.push(
      [
        c,
        m('bare', 'rps').toFixed(0),
        m('early', 'rps').toFixed(0),
        ratio(m('early', 'rps'), m('bare', 'rps')),
        `${m('bare', 'p50')} / ${m('bare', 'p99')}`,
        `${m('early', 'p50')} / ${m('early', 'p99')}`,
        `${bareCpu.toFixed(0)} / ${cpu.toFixed(0)} us`,
        ratio(bareCpu, cpu),
        errors,
      ].join(' | '),
    );
    saved.push(
      [
        c,
        `${routerCpu.toFixed(0)} us`,
        `${cpu.toFixed(0)} us`,
        `${(routerCpu - cpu).toFixed(0)} us`,
        ratio(cpu, routerCpu),
        `${m('router', 'rps').toFixed(0)} / ${m('early', 'rps').toFixed(0)}`,
        ratio(m('early', 'rps'), m('router', 'rps')),
      ].join(' | '),
    );
  }
  return [
    `${ROUNDS} alternating rounds of ${SECONDS} s per target, medians; ` +
      `load average ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end (2 cores, shared).`,
    '',
    '| connections | bare node:http req/s | /mlds req/s | ratio | bare p50 / p99 ms | /mlds p50 / p99 ms ' +
      '| server CPU per request, bare / /mlds | bare / /mlds CPU | errors |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    '',
    'Each /mlds request changes the LED display (four departures in turn), so the service validates, stores, ' +
      'draws (at most one frame per 20 ms) and confirms; the bare handler only answers. Load generator and server ' +
      'share the 2 cores, so req/s also measures how much CPU the server leaves the generator; CPU per request ' +
      '(from /proc, threads included) compares the servers alone.',
    '',
    'What the early listener saves: the same commands sent to /mlds/, which reaches the same route and middleware ' +
      "through koa's router, composition and response handling, against /mlds, which runs them ahead of those.",
    '',
    '| connections | server CPU per command, /mlds/ through the router | /mlds ahead of it | saved ' +
      '| ahead / through, CPU | req/s through / ahead | ahead / through, req/s |',
    '|---|---|---|---|---|---|---|',
    ...saved.map((r) => `| ${r} |`),
  ];
}

/**
 * A temporary service folder with the example configuration (no boot screens, crons or poller; no rate limit) and its
 * images.
 */
export function exampleDir(prefix: string): { dir: string; cfg: ReturnType<typeof exampleConfig> } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const cfg = exampleConfig();
  cfg.rateLimit = '100000';
  cpSync(path.join(REPO, 'examples/images'), path.join(dir, 'images'), { recursive: true });
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(cfg));
  return { dir, cfg };
}

export async function benchCore(): Promise<string> {
  const { dir, cfg } = exampleDir('mlds-bench-');
  const lines: string[] = [];
  const bare = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'pipe', 'pipe'] });
  // As the device starts it: the unit's Environment= lines.
  const svc = spawn(process.execPath, distStart(path.join(dir, 'config.json'), path.join(dir, 'state')), {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...unitEnvironment() },
  });
  try {
    const [barePort, svcPort] = await Promise.all([waitForPort(bare), waitForPort(svc)]);
    // Idle: the service has started, drawn its first frames and settled; nothing commanded yet.
    await new Promise((r) => setTimeout(r, 3000));
    const idle = rssMb(svc.pid!);
    const bareRss = rssMb(bare.pid!);
    lines.push(...(await commandFigures(barePort, bare.pid!, svcPort, svc.pid!)));
    const ledOnly = await idleRssLedOnly(dir, cfg);
    lines.push(
      '',
      `RSS idle (example configuration: the 640x160 LED and the 1920x1080 LCD, started, nothing commanded): ` +
        `service **${idle.toFixed(1)} MB**; bare node:http process ${bareRss.toFixed(1)} MB (ratio ` +
        `${(idle / bareRss).toFixed(2)}); target under 90 MB.`,
    );
    lines.push(`RSS idle with the LED display alone: **${ledOnly.toFixed(1)} MB**.`);
    lines.push(`RSS after the load: ${rssMb(svc.pid!).toFixed(1)} MB.`);
  } finally {
    await Promise.all(
      [bare, svc].map(
        (c) =>
          new Promise((r) => {
            if (c.exitCode !== null) r(null);
            else {
              c.once('exit', r);
              c.kill();
            }
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  }
  lines.push('', ...(await frameTime()));
  return lines.join('\n');
}

/** The same idle measurement for the LED display alone: what a 1080p canvas and its frame add. */
async function idleRssLedOnly(dir: string, cfg: ReturnType<typeof exampleConfig>): Promise<number> {
  const file = path.join(dir, 'led-only.json');
  writeFileSync(file, JSON.stringify({ ...cfg, displays: { led1: cfg.displays.led1 } }));
  const child = spawn(process.execPath, distStart(file, path.join(dir, 'state-led')), {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...unitEnvironment() },
  });
  try {
    await waitForPort(child);
    await new Promise((r) => setTimeout(r, 3000));
    return rssMb(child.pid!);
  } finally {
    await new Promise((r) => {
      child.once('exit', r);
      child.kill();
    });
  }
}

/**
 * One frame of the example LED display (scrolling destination, clock) against clearing and reading back the same
 * canvas.
 */
async function frameTime(): Promise<string[]> {
  const config = loadConfig(path.join(REPO, 'examples/config.json'));
  const led = config.displayById.get('led1')!;
  const unit = config.units.find((u) => u.key === led.unit)!;
  const ctl = offlineController(config);
  const seed = JSON.parse(readFileSync(path.join(REPO, 'examples/state.json'), 'utf8')) as {
    lastRequest: Record<string, { query: string }>;
  };
  await ctl.apply(seed.lastRequest.led1.query, 'reload');
  const comp = new Compositor(unit, [led], (id) => ctl.state(id), { effectDurationMs: config.effectDurationMs });
  const t0 = Date.now() + 1000;
  const render: number[] = [];
  for (let i = 0; i < 1500; i++) {
    const s = performance.now();
    comp.render(t0 + i * 20);
    render.push(performance.now() - s);
  }
  const c = createCanvas(unit.width, unit.height);
  const g = c.getContext('2d');
  const base: number[] = [];
  for (let i = 0; i < 1500; i++) {
    const s = performance.now();
    g.fillStyle = i % 2 ? '#000' : '#010101';
    g.fillRect(0, 0, unit.width, unit.height);
    g.getImageData(0, 0, unit.width, unit.height);
    base.push(performance.now() - s);
  }
  ctl.dispose();
  return [
    `Example LED display (640x160, destination scrolling, clock): one frame **${median(render).toFixed(3)} ms** ` +
      `median, ${pct(render, 0.99).toFixed(3)} ms p99 over 1500 frames 20 ms apart;`,
    `baseline (fill + full read-back of the same canvas) ${median(base).toFixed(3)} ms: ratio ` +
      `**${(median(render) / median(base)).toFixed(2)}**.`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchCore());
}
