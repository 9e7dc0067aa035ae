// A fleet at scale on one broker: as many real units (`mlds start` processes, each with its own
// service folder, state folder and unit.json, a 64x16 virtual display) as the machine holds, up to
// MLDS_BENCH_FLEET_UNITS, started in batches against one Debian mosquitto. Measured in the same
// run: each unit's idle CPU (/proc/<pid>/stat over a fixed window) and memory (/proc/<pid>/status);
// the broker's messages per unit while idle and per convergence (PUBLISH counted by a subscriber
// to `mlds/#`, every MQTT packet by $SYS/broker/messages/*); the CPU a convergence costs; and the
// time from publishing a group's desired document (retained, QoS 1, as `mlds fleet apply` does)
// to every unit's retained `reported` document saying it converged at that rev.
// `benchFleetScale()` returns markdown lines; run alone with `node --import tsx bench/fleet-scale.ts`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { parseDesired } from '../src/fleet/desired.js';
import { Broker } from '../test/helpers/broker.js';
import { until } from '../test/helpers/service.js';
import { archiveServer, makeZip } from '../test/helpers/zips.js';
import { unitEnvironment, distStart } from './start.js';

const UNITS = Number(process.env.MLDS_BENCH_FLEET_UNITS ?? 100);
const BATCH = Number(process.env.MLDS_BENCH_FLEET_BATCH ?? 10);
const IDLE_S = Number(process.env.MLDS_BENCH_FLEET_IDLE_SECONDS ?? 60);
const GROUP = 'bench';
/** Stop adding units while less memory than this is available (MB): the machine is shared. */
const KEEP_FREE_MB = 3072;
/** Jiffies per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const HZ = 100;

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The fleet's base configuration: one 64x16 virtual display, one text area; the broker shared. */
function fleetConfig(url: string, colour: string): Obj {
  return {
    effectDurationMs: '0',
    displays: {
      main: {
        displayName: 'Bench panel',
        displayIp: '127.0.0.1',
        displayPort: '9001',
        controllerType: 'T430',
        displayWidth: '64',
        displayHeight: '16',
        output: { driver: 'virtual' },
        layout: { l1: { title: { coordinates: '0 0 63 15', type: 'text', fontSize: '12', fontColor: colour } } },
      },
    },
    mqtt: { url },
  };
}

/** Publishes a group's desired document as `mlds fleet apply --group` does: retained, QoS 1, checked first. */
export async function applyToGroup(client: MqttClient, group: string, doc: Obj): Promise<void> {
  const payload = Buffer.from(JSON.stringify(doc));
  const parsed = parseDesired(payload);
  if (!parsed.ok) throw new Error(`the desired document is refused: ${parsed.message}`);
  await client.publishAsync(`mlds/group/${group}/desired`, payload, { qos: 1, retain: true });
}

interface Unit {
  name: string;
  dir: string;
  child: ChildProcess;
}

const memAvailableMb = () => Number(/^MemAvailable:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]) / 1024;

/** CPU time used so far, seconds (utime + stime). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / HZ;
}

/** Resident memory, MB: all of it, and its anonymous part (heaps, canvases, buffers). */
function rssOf(pid: number): { rss: number; anon: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon') };
}

/**
 * The MQTT packets the broker received and sent so far ($SYS/broker/messages/*: every packet, PUBLISH,
 * PUBACK, PINGREQ...; mosquitto 2.0.11's $SYS/broker/publish/messages/received leaves retained
 * PUBLISHes out, and a unit's are all retained), read by one subscriber for the whole run: QoS 0 and no
 * keepalive, so all it adds is the $SYS messages it is sent, which it counts (`heard`).
 */
async function packetCounter(url: string): Promise<{
  /** At the next $SYS tick (every second here): the counters, and the $SYS messages heard till then. */
  next(): Promise<{ received: number; sent: number; heard: number }>;
  close(): Promise<void>;
}> {
  const c = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0, clean: true, keepalive: 0 });
  let received = NaN,
    heard = 0;
  c.on('message', (t, p) => {
    heard++;
    if (t.endsWith('/received')) received = Number(p);
  });
  await c.subscribeAsync(['$SYS/broker/messages/received', '$SYS/broker/messages/sent'], { qos: 0 });
  return {
    // `sent` changes at every tick (it counts this subscriber's own messages), and comes after `received`.
    next: () =>
      new Promise((resolve, reject) => {
        const late = setTimeout(() => {
          c.off('message', on);
          reject(new Error('no $SYS/broker/messages/sent from the broker within 10 s'));
        }, 10_000);
        const on = (t: string, p: Buffer) => {
          if (!t.endsWith('/sent') || Number.isNaN(received)) return;
          c.off('message', on);
          clearTimeout(late);
          resolve({ received, sent: Number(p), heard });
        };
        c.on('message', on);
      }),
    close: () => c.endAsync(true).catch(() => {}),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);

export async function benchFleetScale(): Promise<string> {
  const t0 = performance.now();
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-bench-fleet-scale-'));
  const broker = new Broker({ settings: ['sys_interval 1'] });
  const units: Unit[] = [];
  // Whatever ends this process, no unit or broker outlives it.
  const killAll = () => {
    for (const u of units) if (u.child.exitCode === null) u.child.kill('SIGKILL');
    try {
      if (broker.pid) process.kill(broker.pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(broker.dir, { recursive: true, force: true });
  };
  const onSignal = () => process.exit(130);
  process.once('exit', killAll);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const served = new Map<string, Buffer>();
  const files = await archiveServer(served);
  let observer: MqttClient | undefined;
  let counter: Awaited<ReturnType<typeof packetCounter>> | undefined;
  const load0 = loadavg()[0];
  try {
    await broker.start();
    // One observer of every unit's topics, at QoS 0 (no acknowledgements of its own): it counts
    // every PUBLISH under mlds/ and keeps each unit's availability and last report.
    observer = await mqtt.connectAsync(broker.url, {
      protocolVersion: 5,
      reconnectPeriod: 0,
      clean: true,
      keepalive: 0,
    });
    counter = await packetCounter(broker.url);
    await observer.subscribeAsync('mlds/#', { qos: 0 });
    let heard = 0,
      own = 0;
    interface Traffic {
      received: number;
      sent: number;
      sysHeard: number;
      heard: number;
      own: number;
    }
    const traffic = async (): Promise<Traffic> => {
      const c = await counter!.next();
      return { received: c.received, sent: c.sent, sysHeard: c.heard, heard, own };
    };
    /**
     * Per unit between two snapshots: the units' PUBLISHes; the broker's packets less the bench's own
     * (its desired documents, PUBLISH in and PUBACK out; the observer's and the $SYS subscriber's copies).
     */
    const perUnit = (a: Traffic, b: Traffic) => {
      const own = b.own - a.own;
      return {
        published: (b.heard - a.heard - own) / n,
        received: (b.received - a.received - own) / n,
        sent: (b.sent - a.sent - own - (b.heard - a.heard) - (b.sysHeard - a.sysHeard)) / n,
      };
    };
    // Each unit's last report, and when it arrived (performance.now()).
    const reported = new Map<string, Obj>();
    const arrived = new Map<string, number>();
    const online = new Set<string>();
    observer.on('message', (topic, payload) => {
      heard++;
      const [, name, kind] = topic.split('/');
      if (kind === 'availability') {
        if (payload.toString() === 'online') online.add(name);
        else online.delete(name);
      } else if (kind === 'reported' && payload.length) {
        reported.set(name, JSON.parse(payload.toString()) as Obj);
        arrived.set(name, performance.now());
      }
    });
    const env = { ...process.env, ...unitEnvironment(undefined, dir) };
    mkdirSync(env.CACHE_DIRECTORY ?? path.join(dir, 'cache'), { recursive: true });

    // Start in batches: each batch online before the next, until the count or the memory runs out.
    const tStart = performance.now();
    let n = 0;
    let stoppedBy = '';
    while (units.length < UNITS) {
      if (memAvailableMb() < KEEP_FREE_MB) {
        stoppedBy = `stopped adding with ${memAvailableMb().toFixed(0)} MB available`;
        break;
      }
      const batch: Unit[] = [];
      for (let i = 0; i < BATCH && units.length < UNITS; i++) {
        const name = `u${String(units.length + 1).padStart(3, '0')}`;
        const udir = path.join(dir, name);
        mkdirSync(path.join(udir, 'state'), { recursive: true });
        writeFileSync(path.join(udir, 'config.json'), JSON.stringify(fleetConfig(broker.url, '255 255 255')));
        writeFileSync(path.join(udir, 'state/unit.json'), JSON.stringify({ mqtt: { unit: name, groups: [GROUP] } }));
        const log = openSync(path.join(udir, 'log'), 'w');
        const args = distStart(path.join(udir, 'config.json'), path.join(udir, 'state'));
        const child = spawn(process.execPath, args, {
          cwd: udir,
          stdio: ['ignore', log, log],
          env,
        });
        closeSync(log);
        const u = { name, dir: udir, child };
        units.push(u);
        batch.push(u);
      }
      try {
        await until(() => batch.every((u) => online.has(u.name)), 20_000 + 2000 * BATCH, 'a batch online');
      } catch {
        const late = batch.filter((u) => !online.has(u.name));
        const tail = readFileSync(path.join(late[0].dir, 'log'), 'utf8').slice(-400);
        stoppedBy = `${late.length} of the last batch did not come online (${late[0].name}: ${tail.trim()})`;
        for (const u of late) {
          u.child.kill('SIGKILL');
          units.splice(units.indexOf(u), 1);
        }
        break;
      }
    }
    const startS = (performance.now() - tStart) / 1000;
    n = units.length;
    if (n === 0) throw new Error(`no unit started: ${stoppedBy}`);
    // The first report of every unit, then quiet (the code cache is written 10 s after a start).
    await until(() => units.every((u) => reported.has(u.name)), 60_000, 'every first report');
    await new Promise((r) => setTimeout(r, 12_000));

    // Idle: CPU, memory and the broker's traffic over one window.
    const pids = units.map((u) => u.child.pid!);
    const bpid = broker.pid!;
    const idle0 = await traffic();
    const tIdle = performance.now();
    const cpu0 = pids.map(cpuSeconds),
      bcpu0 = cpuSeconds(bpid);
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const idleS = (performance.now() - tIdle) / 1000;
    const cpuPct = pids.map((p, i) => ((cpuSeconds(p) - cpu0[i]) / idleS) * 100);
    const brokerCpuPct = ((cpuSeconds(bpid) - bcpu0) / idleS) * 100;
    const idle1 = await traffic();
    const perMinute = 60 / ((performance.now() - tIdle) / 1000);
    const idle = perUnit(idle0, idle1);
    const mem = pids.map(rssOf);
    const brokerMem = rssOf(bpid);

    // A change to the group's desired state, then the time until every unit reports it converged.
    const converge = async (doc: Obj, check: (r: Obj, unit: string) => boolean) => {
      const before = await traffic();
      const cpuBefore = pids.map(cpuSeconds);
      const t = performance.now();
      await applyToGroup(observer!, GROUP, doc);
      own++;
      const done = (u: Unit) => {
        const r = reported.get(u.name);
        return r?.rev === String(doc.rev) && r.converged === true && check(r, u.name);
      };
      const count = () =>
        `every unit converged at rev ${doc.rev} (${units.filter(done).length} of ${n}; ` +
        `${units[0].name} reported ${JSON.stringify(reported.get(units[0].name))})`;
      await until(() => units.every(done), 120_000, count, 50);
      const each = units.map((u) => arrived.get(u.name)! - t);
      // The CPU the units spent converging: with every unit on this machine's 2 cores, it sets the time.
      const cpuMs = (pids.reduce((a, p, i) => a + cpuSeconds(p) - cpuBefore[i], 0) / n) * 1000;
      await new Promise((r) => setTimeout(r, 2000));
      return { ms: max(each), median: median(each), cpuMs, ...perUnit(before, await traffic()) };
    };
    const bright = await converge({ rev: 1, brightness: 40 }, (r) => r.parts.brightness?.message === '40 %');
    const zip = makeZip(path.join(dir, 'fleet.zip'), [
      { name: 'config.json', text: JSON.stringify(fleetConfig(broker.url, '255 160 0')) },
    ]);
    served.set('fleet.zip', readFileSync(zip));
    const sha256 = createHash('sha256').update(served.get('fleet.zip')!).digest('hex');
    const digests = new Map(units.map((u) => [u.name, reported.get(u.name)?.digest as string]));
    const config = await converge(
      { rev: 2, brightness: 60, config: { url: `${files.base}/fleet.zip`, sha256 } },
      (r, unit) =>
        r.parts.config?.state === 'ok' && r.digest !== digests.get(unit) && r.parts.brightness?.state === 'ok',
    );
    const totalS = (performance.now() - t0) / 1000;

    const f1 = (x: number) => x.toFixed(1);
    const f2 = (x: number) => x.toFixed(2);
    const conv = (c: Awaited<ReturnType<typeof converge>>, what: string) =>
      `| ${what} | **${f2(c.ms / 1000)} s** | ${f2(c.median / 1000)} s | ${c.cpuMs.toFixed(0)} ms | ` +
      `${f1(c.published)} | ${f1(c.received)} | ${f1(c.sent)} |`;
    return [
      `${n} units of ${UNITS} asked for started (${stoppedBy || 'all'}), in batches of ${BATCH}, in ` +
        `${f1(startS)} s: real \`mlds start\` processes (dist/cli.js, the environment of systemd/mlds.service), ` +
        `each with its own folder, state folder and unit.json (name, group \`${GROUP}\`), one 64x16 virtual ` +
        `display, all on one Debian mosquitto 2.0.11 on loopback. Load average ${f2(load0)} at the start, ` +
        `${f2(loadavg()[0])} at the end (2 cores, shared); the whole run took ${f1(totalS)} s.`,
      '',
      `Idle, over ${f1(idleS)} s from 12 s after the last unit's first report (/proc/<pid>/stat, /proc/<pid>/status):`,
      '',
      '| measure | median per unit | largest unit | all units | the broker |',
      '|---|---|---|---|---|',
      `| CPU | **${f2(median(cpuPct))} %** | ${f2(max(cpuPct))} % | ${f1(cpuPct.reduce((a, b) => a + b, 0))} % ` +
        `of one core | ${f2(brokerCpuPct)} % |`,
      `| RSS | **${f1(median(mem.map((m) => m.rss)))} MB** | ${f1(max(mem.map((m) => m.rss)))} MB | ` +
        `${(mem.reduce((a, m) => a + m.rss, 0) / 1024).toFixed(2)} GB | ${f1(brokerMem.rss)} MB |`,
      `| of it anonymous (RssAnon) | ${f1(median(mem.map((m) => m.anon)))} MB | ` +
        `${f1(max(mem.map((m) => m.anon)))} MB | ${(mem.reduce((a, m) => a + m.anon, 0) / 1024).toFixed(2)} GB | ` +
        `${f1(brokerMem.anon)} MB |`,
      '',
      'Broker traffic per unit: PUBLISH messages the units sent (every one under `mlds/`, counted by one QoS 0 ' +
        "subscriber to `mlds/#`, the bench's own left out), and every MQTT packet the broker received and sent " +
        "(PUBLISH, PUBACK, PINGREQ/PINGRESP...: $SYS/broker/messages/received and sent, the bench's own " +
        'packets left out).',
      '',
      '| window | to every unit converged | to the median unit | CPU per unit | PUBLISH by the unit | ' +
        'packets received | packets sent |',
      '|---|---|---|---|---|---|---|',
      `| idle, per minute | | | ${((median(cpuPct) / 100) * 60_000).toFixed(0)} ms (median) | ` +
        `**${f2(idle.published * perMinute)}** | ${f2(idle.received * perMinute)} | ${f2(idle.sent * perMinute)} |`,
      conv(bright, "a group's desired brightness 40 %"),
      conv(config, 'its configuration archive (each unit fetches it over HTTP, checks its SHA-256) and 60 %'),
      '',
      "Converged: a group's desired document published once (retained, QoS 1, as `mlds fleet apply --group` " +
        "does), to the last (the median) unit's retained `reported` document saying it converged at that rev; " +
        "its CPU (from each unit's /proc/<pid>/stat, per unit) from the publish to the last report, its messages " +
        'to 2 s after it.',
    ].join('\n');
  } finally {
    await observer?.endAsync(true).catch(() => {});
    await counter?.close();
    await Promise.all(
      units.map(async (u) => {
        if (u.child.exitCode !== null || u.child.signalCode !== null) return;
        const gone = new Promise((r) => u.child.once('exit', r));
        u.child.kill('SIGTERM');
        const late = setTimeout(() => u.child.kill('SIGKILL'), 10_000);
        await gone;
        clearTimeout(late);
      }),
    );
    files.close();
    await broker.cleanup();
    process.off('exit', killAll);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchFleetScale());
}
