// Screenshot figures: what one client polling the 1920x1080 display's PNG
// screenshot on two connections costs the rest of the service. One service runs the example
// configuration (the scrolling 640x160 LED and the 1080p LCD with a ticker, so every frame
// differs); it gets a steady 20 /mlds commands a second, alternately without and with the
// poller, and each pair of periods is compared as ratios.
//   node --import tsx bench/screenshot.ts    (MLDS_BENCH_SHOT_SECONDS, MLDS_BENCH_CLI=<another build's cli.js>)
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { exampleDir, waitForPort } from './core.js';
import { distStart } from './start.js';

const REPO = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.MLDS_BENCH_SHOT_SECONDS ?? 10);
const ROUNDS = 2;
const COMMANDS_PER_SECOND = 20;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : NaN;
};

function request(agent: http.Agent, port: number, p: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, agent }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => {
        bytes += d.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
  });
}

interface LoopFigures {
  rendered: number;
  sent: number;
  missed: number;
}
async function loopFigures(port: number, id: string): Promise<LoopFigures> {
  const agent = new http.Agent();
  const body = await new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/status', agent }, (res) => {
        let s = '';
        res.on('data', (d: Buffer) => {
          s += d.toString();
        });
        res.on('end', () => resolve(s));
      })
      .on('error', reject);
  });
  agent.destroy();
  const d = (JSON.parse(body) as { displays: Array<{ id: string; frames: LoopFigures }> }).displays.find(
    (x) => x.id === id,
  )!;
  return d.frames;
}

/** /mlds commands at a steady rate on one keep-alive connection, each timed. */
async function commands(port: number, ms: number): Promise<{ latencies: number[]; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const routes = ['175', '128', 'N12', '24'];
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  for (let i = 0; performance.now() - start < ms; i++) {
    const due = start + (i * 1000) / COMMANDS_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const destination = `Destination%20number%20${i % 4}%20via%20Centrum`;
    const q = `/mlds?id=led1&layout=departure&route=${routes[i % 4]}&destination=${destination}&inumber=${i}`;
    const t = performance.now();
    const r = await request(agent, port, q);
    latencies.push(performance.now() - t);
    if (r.status !== 200) errors++;
  }
  agent.destroy();
  return { latencies, errors };
}

/** One client asking for the LCD's PNG back to back on two connections until `stop` resolves. */
async function poll(port: number, stop: Promise<void>): Promise<{ ok: number; refused: number; latencies: number[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  let done = false;
  void stop.then(() => {
    done = true;
  });
  const out = { ok: 0, refused: 0, latencies: [] as number[] };
  await Promise.all(
    [0, 1].map(async () => {
      while (!done) {
        const t = performance.now();
        const r = await request(agent, port, '/screenshot?id=lcd1&format=png');
        out.latencies.push(performance.now() - t);
        if (r.status === 200) out.ok++;
        else if (r.status === 503) {
          out.refused++;
          await new Promise((res) => setTimeout(res, 100));
        } else throw new Error(`screenshot answered ${r.status}`);
      }
    }),
  );
  agent.destroy();
  return out;
}

const ratioOfSums = (pairs: Array<[Period, Period]>, f: (p: Period) => number) =>
  (pairs.reduce((n, p) => n + f(p[1]), 0) / pairs.reduce((n, p) => n + f(p[0]), 0)).toFixed(2);

interface Period {
  p50: number;
  p99: number;
  errors: number;
  led: LoopFigures;
  shots?: { ok: number; refused: number; p50: number };
}

async function period(port: number, withPoller: boolean): Promise<Period> {
  const before = await loopFigures(port, 'led1');
  let stop!: () => void;
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  const poller = withPoller ? poll(port, stopped) : undefined;
  const c = await commands(port, SECONDS * 1000);
  stop();
  const shots = await poller;
  const after = await loopFigures(port, 'led1');
  return {
    p50: pct(c.latencies, 0.5),
    p99: pct(c.latencies, 0.99),
    errors: c.errors,
    led: {
      rendered: after.rendered - before.rendered,
      sent: after.sent - before.sent,
      missed: after.missed - before.missed,
    },
    shots: shots && { ok: shots.ok, refused: shots.refused, p50: pct(shots.latencies, 0.5) },
  };
}

export async function benchScreenshot(): Promise<string> {
  const { dir } = exampleDir('mlds-bench-shot-');
  // The example's content: the LED's destination and the LCD's ticker scroll.
  mkdirSync(path.join(dir, 'state'));
  cpSync(path.join(REPO, 'examples/state.json'), path.join(dir, 'state/state.json'));
  const load0 = loadavg()[0];
  const svc = spawn(
    process.execPath,
    distStart(path.join(dir, 'config.json'), path.join(dir, 'state'), '0', '--log-dir', path.join(dir, 'log')),
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const rows: string[] = [];
  try {
    const port = await waitForPort(svc);
    await new Promise((r) => setTimeout(r, 3000));
    const pairs: Array<[Period, Period]> = [];
    for (let i = 0; i < ROUNDS; i++) pairs.push([await period(port, false), await period(port, true)]);
    rows.push(
      `${ROUNDS} pairs of ${SECONDS} s periods, alternately without and with the poller; ${COMMANDS_PER_SECOND} ` +
        `/mlds commands a second to the LED display in both; load average ${load0.toFixed(2)} at the start, ` +
        `${loadavg()[0].toFixed(2)} at the end (2 cores, shared).`,
      '',
      '| period | /mlds p50 / p99 ms | p50 with / without | LED frames drawn per second | with / without | LED ' +
        'frames missed | PNG screenshots per second (p50 ms) | 503 |',
      '|---|---|---|---|---|---|---|---|',
    );
    const fps = (p: Period) => p.led.rendered / SECONDS;
    pairs.forEach(([a, b], i) => {
      rows.push(
        `| ${i + 1}, without | ${a.p50.toFixed(1)} / ${a.p99.toFixed(1)} | | ${fps(a).toFixed(1)} | | ` +
          `${a.led.missed} | - | - |`,
      );
      rows.push(
        `| ${i + 1}, with | ${b.p50.toFixed(1)} / ${b.p99.toFixed(1)} | **${(b.p50 / a.p50).toFixed(2)}** | ` +
          `${fps(b).toFixed(1)} | **${(fps(b) / fps(a)).toFixed(2)}** | ${b.led.missed} | ` +
          `${(b.shots!.ok / SECONDS).toFixed(1)} (${b.shots!.p50.toFixed(0)}) | ${b.shots!.refused} |`,
      );
    });
    const errors = pairs.reduce((n, [a, b]) => n + a.errors + b.errors, 0);
    const missed = (k: 0 | 1) => pairs.reduce((n, p) => n + p[k].led.missed, 0);
    rows.push(
      '',
      `Over all pairs: /mlds p50 with / without the poller **${ratioOfSums(pairs, (p) => p.p50)}**, LED frames ` +
        `drawn with / without **${ratioOfSums(pairs, fps)}**; LED frames missed ${missed(0)} without, ` +
        `${missed(1)} with; ${errors} /mlds errors.`,
      "The LCD's ticker scrolls, so nearly every screenshot is a new frame and a new encode: the worst case for " +
        'the poller. A frame loop that falls behind counts the deadlines it passed as missed.',
    );
  } finally {
    await new Promise((r) => {
      if (svc.exitCode !== null) r(null);
      else {
        svc.once('exit', r);
        svc.kill();
      }
    });
    rmSync(dir, { recursive: true, force: true });
  }
  return rows.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchScreenshot());
}
