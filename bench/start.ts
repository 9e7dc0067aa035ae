// Start and idle memory: from spawning `mlds start` with the example configuration to its first
// answer on /status, and its resident memory once idle, each against a bare node:http process
// measured the same way in the same run (alternating rounds, so load drifts hit both). The
// service is started as the device starts it: the unit's ExecStart script (dist/launch.js), with
// the environment systemd/mlds.service sets (its Environment= lines, and CACHE_DIRECTORY for its
// CacheDirectory=); the bare process without it. The rounds measure a device's every start after
// its first; that first one (no code cache yet) is measured apart.
// `benchStart()` returns markdown lines; run alone with `node --import tsx bench/start.ts`.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleConfig } from '../test/helpers/service.js';

const REPO = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.MLDS_BENCH_START_ROUNDS ?? 5);

const BARE = `
const http = require('node:http');
http.createServer((req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.end('{}');
}).listen(Number(process.argv.at(-1)), '127.0.0.1');`;

/**
 * The environment the device's unit gives the service: its Environment= lines, and for
 * CacheDirectory= the CACHE_DIRECTORY systemd sets (here below `cacheRoot`).
 */
/** `node`'s arguments for `mlds start` from dist/ (as `npm run bench` builds it), on `port`, then `more`. */
export function distStart(configFile: string, stateDir: string, port = '0', ...more: string[]): string[] {
  const cli = process.env.MLDS_BENCH_CLI ?? path.join(REPO, 'dist/cli.js');
  return [cli, 'start', '--config', configFile, '--port', port, '--state-dir', stateDir, ...more];
}

export function unitEnvironment(
  unit = readFileSync(path.join(REPO, 'systemd/mlds.service'), 'utf8'),
  cacheRoot?: string,
): Record<string, string> {
  const pairs = unit
    .split('\n')
    .filter((l) => l.startsWith('Environment='))
    .flatMap((l) => l.slice('Environment='.length).trim().split(/\s+/));
  const env = Object.fromEntries(pairs.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  const cache = /^CacheDirectory=(\S+)/m.exec(unit)?.[1];
  if (cache && cacheRoot) env.CACHE_DIRECTORY = path.join(cacheRoot, cache);
  return env;
}

/** The script the unit's ExecStart runs, in this checkout (dist/launch.js). */
function unitScript(unit = readFileSync(path.join(REPO, 'systemd/mlds.service'), 'utf8')): string {
  const script = /^ExecStart=\S+ \/opt\/mlds\/(\S+)/m.exec(unit)?.[1];
  if (!script) throw new Error('systemd/mlds.service: no ExecStart=<node> /opt/mlds/<script>');
  return path.join(REPO, script);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

function answers(port: number, urlPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: urlPath, timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

/** Milliseconds from spawn to the first 200 on urlPath, polling every 5 ms. */
async function timeToAnswer(child: ChildProcess, t0: number, port: number, urlPath: string): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    if (await answers(port, urlPath)) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Resident memory by kind, MB: total, anonymous (heaps, canvases), file-backed (code, libraries). */
export function memory(pid: number): { rss: number; anon: number; file: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) / 1024;
  const rss = kb('Rss'),
    anon = kb('Anonymous');
  return { rss, anon, file: rss - anon };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((r) => {
    child.once('exit', r);
    child.kill();
  });
}

interface Round {
  ms: number;
  rss: number;
  anon: number;
  file: number;
}

async function once(
  args: (port: number) => string[],
  urlPath: string,
  idleMs: number,
  env: Record<string, string> = {},
): Promise<Round> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args(port), {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, ...env },
  });
  try {
    const ms = await timeToAnswer(child, t0, port, urlPath);
    await new Promise((r) => setTimeout(r, idleMs));
    return { ms, ...memory(child.pid!) };
  } finally {
    await stop(child);
  }
}

const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

export async function benchStart(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-bench-start-'));
  const cfg = exampleConfig();
  cpSync(path.join(REPO, 'examples/images'), path.join(dir, 'images'), { recursive: true });
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(cfg));
  const env = unitEnvironment(undefined, path.join(dir, 'cache'));
  const script = unitScript();
  const load0 = loadavg()[0];
  const svc: Round[] = [],
    bare: Round[] = [];
  const service = (i: number, idleMs: number) =>
    once(
      (port) => [
        script,
        'start',
        '--config',
        path.join(dir, 'config.json'),
        '--port',
        String(port),
        '--state-dir',
        path.join(dir, `state${i}`),
      ],
      '/status',
      idleMs,
      env,
    );
  let first: Round;
  try {
    // A device's first start of this build: no code cache; it writes one 10 s after the start.
    if (env.CACHE_DIRECTORY) mkdirSync(env.CACHE_DIRECTORY, { recursive: true });
    first = await service(-1, 12_000);
    const cached = env.CACHE_DIRECTORY
      ? readdirSync(env.CACHE_DIRECTORY).filter((f) => f.endsWith('.v8cache')).length
      : 0;
    if (env.CACHE_DIRECTORY && cached !== 1)
      throw new Error(`the first start left ${cached} code caches in ${env.CACHE_DIRECTORY}`);
    for (let i = 0; i < ROUNDS; i++) {
      bare.push(await once((port) => ['-e', BARE, String(port)], '/', 3000));
      svc.push(await service(i, 3000));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const m = (rs: Round[], k: keyof Round) => median(rs.map((r) => r[k]));
  const envShown =
    Object.entries(env)
      .map(([k, v]) => `${k}=${k === 'CACHE_DIRECTORY' ? '<temporary>' : v}`)
      .join(' ') || 'none';
  return [
    `${ROUNDS} alternating rounds; load average ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at ` +
      `the end (2 cores, shared).`,
    'Start: spawn to the first 200 answer (the service on /status, the bare node:http process on /), ' +
      'polled every 5 ms.',
    `The service runs as the device starts it: ${path.relative(REPO, script)}, ` +
      `with the environment of systemd/mlds.service (${envShown}); the bare process without it.`,
    `The rounds are the starts after the first, which wrote the code cache; that first start took ` +
      `${first.ms.toFixed(0)} ms.`,
    'Memory: /proc/<pid>/smaps_rollup 3 s after that answer, medians.',
    '',
    '| measure | bare node:http | service, example configuration | service / bare | target |',
    '|---|---|---|---|---|',
    `| start to first answer | ${m(bare, 'ms').toFixed(0)} ms | **${m(svc, 'ms').toFixed(0)} ms** | ` +
      `${(m(svc, 'ms') / m(bare, 'ms')).toFixed(2)} | under 500 ms |`,
    `| RSS idle | ${m(bare, 'rss').toFixed(1)} MB | **${m(svc, 'rss').toFixed(1)} MB** | ` +
      `${(m(svc, 'rss') / m(bare, 'rss')).toFixed(2)} | under 90 MB |`,
    `| of it anonymous (heaps, canvases, buffers) | ${m(bare, 'anon').toFixed(1)} MB | ` +
      `${m(svc, 'anon').toFixed(1)} MB | ${(m(svc, 'anon') / m(bare, 'anon')).toFixed(2)} | |`,
    `| of it file-backed (node, native libraries) | ${m(bare, 'file').toFixed(1)} MB | ` +
      `${m(svc, 'file').toFixed(1)} MB | ${(m(svc, 'file') / m(bare, 'file')).toFixed(2)} | |`,
    '',
    `Targets: start at most 3 times the bare process's: ${verdict(m(svc, 'ms') / m(bare, 'ms') <= 3)}; ` +
      `idle anonymous memory at most 3 times: ${verdict(m(svc, 'anon') / m(bare, 'anon') <= 3)}; ` +
      `idle RSS at most 1.5 times: ${verdict(m(svc, 'rss') / m(bare, 'rss') <= 1.5)}.`,
    'What the unit pays for is the anonymous memory: the kernel drops clean file-backed pages (code, fonts) ' +
      'under pressure and reads them again, and the service no longer drops them itself after the start (that ' +
      'lowered RSS, not memory in use).',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchStart());
}
