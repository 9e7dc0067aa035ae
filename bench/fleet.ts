// Fleet over MQTT: a command's round trip through a real Mosquitto (publish to
// `cmd`, `confirm` received) against the HTTP round trip (/mlds, then the feedback GET at the
// feedback server) in the same run, alternating; 1,000 commands through the broker with none
// lost; idle RSS of `mlds start` with `mqtt` configured against without (alternating rounds).
// `benchFleet()` returns markdown lines; run alone with `node --import tsx bench/fleet.ts`. A fleet of
// many units on one broker is bench/fleet-scale.ts.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Broker, Watcher } from '../test/helpers/broker.js';
import { freePort } from '../test/helpers/ports.js';
import { exampleConfig, start, until } from '../test/helpers/service.js';
import { memory, unitEnvironment, distStart } from './start.js';

const REPO = path.resolve(import.meta.dirname, '..');
const TRIPS = Number(process.env.MLDS_BENCH_FLEET_TRIPS ?? 300);
const BURST = 1000;
const RSS_ROUNDS = Number(process.env.MLDS_BENCH_FLEET_ROUNDS ?? 3);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};
const median = (xs: number[]) => pct(xs, 0.5);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function benchConfig(feedbackPort: number, mqttUrl?: string): Record<string, any> {
  const cfg = exampleConfig();
  const main = Object.values(cfg.displays)[0] as Record<string, unknown>;
  main.confirmIp = '127.0.0.1';
  main.confirmPort = String(feedbackPort);
  if (mqttUrl) cfg.mqtt = { url: mqttUrl, unit: 'bench', keepalive: 30 };
  return cfg;
}

/** A command for the example's MAIN display: its first layout, its first text area. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function commandFor(cfg: Record<string, any>): (inumber: string) => string {
  const [id, d] = Object.entries(cfg.displays)[0] as [
    string,
    { layout: Record<string, Record<string, { type: string }>> },
  ];
  const [layout, areas] = Object.entries(d.layout)[0];
  const text = Object.entries(areas).find(([, a]) => a.type === 'text')?.[0];
  const head = `id=${encodeURIComponent(id)}&layout=${encodeURIComponent(layout)}`;
  return (n) => `${head}${text ? `&${encodeURIComponent(text)}=T${n}` : ''}&inumber=${n}`;
}

async function roundTrips(
  dir: string,
  broker: Broker,
): Promise<{ mqtt: number[]; http: number[]; burstMs: number; lost: number; duplicated: number }> {
  const heard = new Map<string, () => void>();
  const feedback = createServer((req, res) => {
    heard.get(new URL(req.url!, 'http://x').searchParams.get('inumber')!)?.();
    res.end('ok');
  });
  await new Promise<void>((r) => feedback.listen(0, '127.0.0.1', r));
  const cfg = benchConfig((feedback.address() as { port: number }).port, broker.url);
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(cfg));
  const svc = await start({
    dir,
    configFile: path.join(dir, 'config.json'),
    stateDir: path.join(dir, 'state'),
    cleanup: () => {},
  });
  const w = await Watcher.open(broker.url, ['mlds/bench/confirm']);
  const confirmed = new Map<string, () => void>();
  const seen = new Map<string, number>();
  w.client.on('message', (_t, payload) => {
    const n = String((JSON.parse(payload.toString()) as { inumber: string }).inumber);
    seen.set(n, (seen.get(n) ?? 0) + 1);
    confirmed.get(n)?.();
  });
  const cmd = commandFor(cfg);
  const waitFor = (m: Map<string, () => void>, n: string) =>
    new Promise<void>((r) =>
      m.set(n, () => {
        m.delete(n);
        r();
      }),
    );
  const mqtt: number[] = [],
    http: number[] = [];
  try {
    await until(
      () => (svc.api.status().components.fleet as { state: string }).state === 'connected',
      10_000,
      'connected',
    );
    for (let i = 0; i < TRIPS; i++) {
      let n = `m${i}`;
      let t0 = performance.now();
      const viaBroker = waitFor(confirmed, n);
      await w.publish('mlds/bench/cmd', cmd(n));
      await viaBroker;
      mqtt.push(performance.now() - t0);
      n = `h${i}`;
      t0 = performance.now();
      const viaHttp = waitFor(heard, n);
      const res = await fetch(`${svc.url}/mlds?${cmd(n)}`);
      await res.arrayBuffer();
      await viaHttp;
      http.push(performance.now() - t0);
    }
    // The burst: every command published at once (QoS 1), then every confirmation awaited.
    const t0 = performance.now();
    const all = Array.from({ length: BURST }, (_, i) => waitFor(confirmed, `b${i}`));
    await Promise.all(Array.from({ length: BURST }, (_, i) => w.publish('mlds/bench/cmd', cmd(`b${i}`))));
    await Promise.race([Promise.all(all), new Promise((r) => setTimeout(r, 60_000))]);
    const burstMs = performance.now() - t0;
    const burst = [...seen].filter(([n]) => n.startsWith('b'));
    return { mqtt, http, burstMs, lost: BURST - burst.length, duplicated: burst.filter(([, c]) => c > 1).length };
  } finally {
    await w.close();
    await svc.close();
    await new Promise((r) => feedback.close(r));
  }
}

async function idleRss(
  dir: string,
  broker: Broker,
  withMqtt: boolean,
  round: number,
): Promise<{ rss: number; anon: number }> {
  const port = await freePort();
  const file = path.join(dir, `config-${withMqtt ? 'mqtt' : 'plain'}.json`);
  writeFileSync(file, JSON.stringify(benchConfig(9999, withMqtt ? broker.url : undefined)));
  const child = spawn(process.execPath, distStart(file, path.join(dir, `rss${round}${withMqtt}`), String(port)), {
    stdio: 'ignore',
    env: { ...process.env, ...unitEnvironment() },
  });
  try {
    await until(
      async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/status`)).ok;
        } catch {
          return false;
        }
      },
      20_000,
      'the service',
    );
    await new Promise((r) => setTimeout(r, 3000));
    return memory(child.pid!);
  } finally {
    await new Promise((r) => {
      child.once('exit', r);
      child.kill();
    });
  }
}

export async function benchFleet(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-bench-fleet-'));
  cpSync(path.join(REPO, 'examples/images'), path.join(dir, 'images'), { recursive: true });
  const broker = await new Broker().start();
  const load0 = loadavg()[0];
  try {
    const r = await roundTrips(dir, broker);
    const plain: Array<{ rss: number; anon: number }> = [],
      withMqtt: Array<{ rss: number; anon: number }> = [];
    for (let i = 0; i < RSS_ROUNDS; i++) {
      plain.push(await idleRss(dir, broker, false, i));
      withMqtt.push(await idleRss(dir, broker, true, i));
    }
    const f = (x: number) => x.toFixed(1);
    return [
      `Debian's mosquitto 2.0.11 on loopback, the example configuration with a feedback server; load average ` +
        `${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end (2 cores, shared).`,
      `Round trips: ${TRIPS} of each, alternating, one at a time. A confirmation leaves once the frame reached ` +
        `the output, so both include up to one frame period (20 ms at 50 fps).`,
      '',
      '| measure | HTTP (/mlds, then the feedback GET) | MQTT (publish to cmd, confirm received) | MQTT / HTTP |',
      '|---|---|---|---|',
      `| round trip p50 | ${f(median(r.http))} ms | **${f(median(r.mqtt))} ms** | ` +
        `${(median(r.mqtt) / median(r.http)).toFixed(2)} |`,
      `| round trip p99 | ${f(pct(r.http, 0.99))} ms | **${f(pct(r.mqtt, 0.99))} ms** | ` +
        `${(pct(r.mqtt, 0.99) / pct(r.http, 0.99)).toFixed(2)} |`,
      '',
      `${BURST} commands published at once through the broker: **${r.lost} lost**, ${r.duplicated} confirmed ` +
        `twice, all confirmed in ${(r.burstMs / 1000).toFixed(2)} s (${Math.round(BURST / (r.burstMs / 1000))} ` +
        `commands/s).`,
      '',
      `Idle RSS of \`mlds start\` (dist/cli.js, with the environment of systemd/mlds.service), example ` +
        `configuration, /proc/<pid>/smaps_rollup 3 s after the first /status answer, median of ${RSS_ROUNDS} ` +
        `alternating rounds:`,
      '',
      '| measure | without `mqtt` | with `mqtt` (connected) | difference | target |',
      '|---|---|---|---|---|',
      `| RSS idle | ${f(median(plain.map((x) => x.rss)))} MB | ${f(median(withMqtt.map((x) => x.rss)))} MB | ` +
        `**${(median(withMqtt.map((x) => x.rss)) - median(plain.map((x) => x.rss))).toFixed(1)} MB** | at most 5 MB |`,
      `| of it anonymous (heaps, buffers) | ${f(median(plain.map((x) => x.anon)))} MB | ` +
        `${f(median(withMqtt.map((x) => x.anon)))} MB | ` +
        `${(median(withMqtt.map((x) => x.anon)) - median(plain.map((x) => x.anon))).toFixed(1)} MB | |`,
    ].join('\n');
  } finally {
    await broker.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchFleet());
}
