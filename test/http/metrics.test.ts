// GET /metrics: the Prometheus text format, loaded only on the first scrape, carrying the
// /status keys (frames per unit, output, commands by source and result, confirmations by value,
// health, the broker). Read by promtool (Prometheus's own parser and linter, Debian's
// `prometheus` package) and by a strict parser of the text format here: counts are counters
// named `_total`, every per-unit series names its display ids and the MQTT unit, an unknown
// value has no sample, and the broker's counts survive a reload that connects again.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type { Status } from '../../src/capability/status-types.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { freePort } from '../helpers/ports.js';
import { emulated } from '../helpers/emulation.js';
import { REPO, baseConfig, get, nextFrame, serviceDir, start, until } from '../helpers/service.js';
import { skipReason } from '../helpers/skip.js';

const require = createRequire(import.meta.url);
const promLoaded = () => Object.keys(require.cache).some((k) => k.includes('/prom-client/'));

const hasPromtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = skipReason(
  !hasMosquitto()
    ? 'mosquitto is not installed (make test-deps)'
    : !hasPromtool
      ? "promtool is not installed (Debian's prometheus package; make test-deps)"
      : undefined,
);

interface Sample {
  labels: Record<string, string>;
  value: number;
}
interface Family {
  type: string;
  help: string;
  samples: Sample[];
}

/**
 * The text format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/), strictly: anything else throws.
 */
function parse(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const fam = (name: string) =>
    families.get(name) ?? families.set(name, { type: '', help: '', samples: [] }).get(name)!;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'HELP') fam(meta[2]).help = meta[3];
      else fam(meta[2]).type = meta[3];
      continue;
    }
    const s = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|NaN|\+Inf|-Inf))$/.exec(line);
    assert.ok(s, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = s[2] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
    for (let m: RegExpExecArray | null; re.lastIndex < body.length && (m = re.exec(body));)
      labels[m[1]] = m[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    assert.equal(re.lastIndex, body.length, `labels not read to their end: ${line}`);
    const value = Number(s[3]);
    assert.ok(Number.isFinite(value), `not a number: ${line}`);
    assert.ok(families.has(s[1]), `a sample before its family's TYPE: ${line}`);
    fam(s[1]).samples.push({ labels, value });
  }
  return families;
}

function promtool(text: string): { status: number | null; out: string } {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: r.status, out: (r.stdout + r.stderr).trim() };
}

test(
  '/metrics parses as Prometheus text and carries the ' + '/status keys; prom-client loads on the first scrape only',
  async () => {
    const cfg = baseConfig();
    cfg.displays.main.confirmIp = '127.0.0.1';
    cfg.displays.main.confirmPort = '9999';
    const sd = serviceDir(cfg);
    const svc = await start(sd, { logDir: sd.dir });
    try {
      assert.equal(promLoaded(), false, 'prom-client is not loaded before /metrics is asked for');
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=A&inumber=1')).status, 200);
      assert.equal((await get(svc, '/mlds?id=main&layout=nope&inumber=2')).status, 400);
      await nextFrame(svc, 'main', -1);
      const res = await get(svc, '/metrics');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
      assert.equal(promLoaded(), true);
      const f = parse(res.text);
      const m = new Map(
        [...f].flatMap(([name, fam]) =>
          fam.samples.map(
            (s) =>
              [
                name +
                  (Object.keys(s.labels).length
                    ? `{${Object.entries(s.labels)
                        .map(([k, v]) => `${k}="${v}"`)
                        .join(',')}}`
                    : ''),
                s.value,
              ] as const,
          ),
        ),
      );
      const unit = `unit="${svc.api.status().displays[0].unit}",display="main",displays="main"`;
      assert.ok(m.get(`mlds_frames_rendered_total{${unit}}`)! >= 1);
      assert.ok(m.has(`mlds_frames_sent_total{${unit}}`) && m.has(`mlds_frames_missed_total{${unit}}`));
      assert.equal(m.get(`mlds_output_consecutive_failures{${unit},driver="virtual"}`), 0);
      assert.equal(m.get('mlds_commands_total{source="http",result="ok"}'), 1);
      assert.equal(m.get('mlds_commands_total{source="http",result="fault"}'), 1);
      assert.ok(m.get('mlds_confirmations_total{confirm="2"}')! >= 1);
      assert.ok(m.get('mlds_memory_available_bytes')! > 0, 'memory available');
      // qemu-user's /proc/self/stat has no resident size: process.memoryUsage.rss() is 0 there.
      assert.ok(
        emulated ? m.get('mlds_service_rss_bytes') === 0 : m.get('mlds_service_rss_bytes')! > 0,
        `service RSS ${m.get('mlds_service_rss_bytes')}`,
      );
      assert.ok(m.has('mlds_disk_free_bytes{folder="state"}'));
      assert.equal(f.get('mlds_broker_state')?.samples.length ?? 0, 0, 'no broker series without mqtt');
      assert.equal(
        [...m.keys()].some((k) => k.includes('mqtt_unit')),
        false,
        'no mqtt_unit label without mqtt',
      );
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

const COUNTERS = [
  'frames_rendered',
  'frames_sent',
  'frames_missed',
  'frames_dropped',
  'output_reopens',
  'commands',
  'confirmations',
  'broker_messages',
  'broker_reconnects',
  'broker_reconnect_attempts',
  'broker_admin_refused',
];

test(
  "/metrics passes promtool; counts are counters named _total with the unit's display ids and MQTT name; the " +
    "broker's counts survive a reload",
  { skip },
  async () => {
    const broker = await new Broker().start();
    const cfg = baseConfig();
    // A second display id on the same output: one physical unit, MAIN first.
    cfg.displays.second = {
      ...cfg.displays.main,
      displayName: 'Overlay',
      layout: { o: { note: { coordinates: '0 0 99 19', type: 'text', fontSize: '12' } } },
    };
    cfg.mqtt = { url: broker.url, unit: 'metrics-1' };
    // A feedback address nobody listens on: its confirmations are given up after two quick attempts.
    cfg.displays.main.confirmIp = '127.0.0.1';
    cfg.displays.main.confirmPort = String(await freePort());
    const sd = serviceDir(cfg);
    const svc = await start(sd, { feedback: { attempts: 2, firstDelayMs: 20, timeoutMs: 1000 } });
    const w = await Watcher.open(broker.url, ['mlds/metrics-1/confirm']);
    try {
      const fleet = async () =>
        ((await get(svc, '/status')).json.components as Record<string, { state: string; messagesIn: number }>).fleet;
      await until(async () => (await fleet()).state === 'connected', 8000, 'connected to the broker');
      await w.publish('mlds/metrics-1/cmd', 'id=main&layout=l1&title=Fleet&inumber=m1');
      await until(() => w.on('mlds/metrics-1/confirm').length === 1, 8000, 'the MQTT command confirmed');
      const seq = svc.api.frame('main')?.seq ?? -1;
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Metrics&inumber=h1')).status, 200);
      await nextFrame(svc, 'main', seq);
      await until(
        async () => {
          const fb = (
            (await get(svc, '/status')).json.components as Record<string, { givenUp: number; queued: number }>
          ).feedback;
          return fb.givenUp === 2 && fb.queued === 0;
        },
        10_000,
        'both confirmations given up at the feedback address',
      );

      const scrape = async () => {
        const res = await get(svc, '/metrics');
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
        assert.deepEqual(
          promtool(res.text),
          { status: 0, out: '' },
          `promtool check metrics says nothing of\n${res.text}`,
        );
        return parse(res.text);
      };
      const status = (await get(svc, '/status')).json as unknown as Status;
      const f = await scrape();
      const one = (name: string, where: (l: Record<string, string>) => boolean = () => true) => {
        const found = f.get(name)?.samples.filter((s) => where(s.labels)) ?? [];
        assert.equal(found.length, 1, `${name}: ${JSON.stringify(found)}`);
        return found[0];
      };

      for (const c of COUNTERS) {
        assert.equal(f.get(`mlds_${c}_total`)?.type, 'counter', `mlds_${c}_total is a counter`);
        assert.equal(f.has(`mlds_${c}`), false, `mlds_${c} (the old gauge) is gone`);
      }
      const fleetDoc = readFileSync(path.join(REPO, 'docs/fleet.md'), 'utf8');
      for (const [name, family] of f) {
        assert.ok(fleetDoc.includes(`\`${name}\``), `${name} is documented in docs/fleet.md`);
        if (family.type === 'counter') assert.match(name, /_total$/);
        else assert.equal(family.type, 'gauge', name);
        for (const s of family.samples)
          assert.equal(s.labels.mqtt_unit, 'metrics-1', `${name} carries the MQTT unit name`);
      }
      const unit = { unit: status.displays[0].unit, display: 'main', displays: 'main,second', mqtt_unit: 'metrics-1' };
      assert.deepEqual(one('mlds_frames_rendered_total').labels, unit);
      assert.ok(one('mlds_frames_sent_total').value >= 1);
      assert.deepEqual(one('mlds_output_reopens_total').labels, { ...unit, driver: 'virtual' });
      assert.ok(one('mlds_commands_total', (l) => l.source === 'http' && l.result === 'ok').value >= 1);
      assert.equal(one('mlds_commands_total', (l) => l.source === 'mqtt').value, 1);
      assert.ok(one('mlds_confirmations_total', (l) => l.confirm === '1').value >= 1);

      assert.deepEqual(one('mlds_build_info').labels, { version: status.version, mqtt_unit: 'metrics-1' });
      assert.equal(one('mlds_build_info').value, 1);
      assert.equal(one('mlds_start_time_seconds').value, Date.parse(status.startedAt) / 1000);
      assert.equal(one('mlds_config_loaded_timestamp_seconds').value, Date.parse(status.config.loadedAt!) / 1000);
      assert.equal(one('mlds_config_generation').value, 1);
      assert.equal(one('mlds_config_last_load_successful').value, 1);
      const bright = (status.components.brightness as { units: Array<{ id: string; brightness: number }> }).units[0];
      assert.deepEqual(one('mlds_brightness_percent'), { labels: unit, value: bright.brightness });
      assert.deepEqual(one('mlds_blanked'), { labels: unit, value: 0 });
      const age = one('mlds_last_command_age_seconds');
      assert.deepEqual(age.labels, { display: 'main', unit: unit.unit, mqtt_unit: 'metrics-1' });
      assert.ok(age.value >= 0 && age.value < 60, `${age.value}`);
      assert.equal(
        f.get('mlds_last_command_age_seconds')!.samples.some((s) => s.labels.display === 'second'),
        false,
        'no command yet: no sample',
      );
      assert.equal(
        one('mlds_confirmations_dropped_total', (l) => l.channel === 'feedback' && l.reason === 'gave_up').value,
        2,
      );
      for (const [channel, reason] of [
        ['feedback', 'queue_full'],
        ['mqtt', 'queue_full'],
      ]) {
        assert.equal(
          one('mlds_confirmations_dropped_total', (l) => l.channel === channel && l.reason === reason).value,
          0,
        );
      }

      // An unknown value has no sample; a known one is exported as /status has it.
      const health = status.components.health as {
        temperatureC: number | null;
        clock: { synchronized: boolean | null };
      };
      assert.equal(f.get('mlds_temperature_celsius')!.samples.length, health.temperatureC === null ? 0 : 1);
      if (health.temperatureC !== null) assert.equal(one('mlds_temperature_celsius').value, health.temperatureC);

      const before = {
        in: one('mlds_broker_messages_total', (l) => l.direction === 'in').value,
        out: one('mlds_broker_messages_total', (l) => l.direction === 'out').value,
      };
      assert.ok(before.in >= 1 && before.out >= 3, JSON.stringify(before));
      // A reload that changes the mqtt section makes a new connection; the counts go on from where they were.
      cfg.mqtt.groups = ['depot-north'];
      writeFileSync(sd.configFile, JSON.stringify(cfg));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      await until(async () => (await fleet()).state === 'connected', 8000, 'connected again after the reload');
      const g = await scrape();
      const after = (direction: string) =>
        g.get('mlds_broker_messages_total')!.samples.find((s) => s.labels.direction === direction)!.value;
      assert.ok(
        after('in') >= before.in && after('out') > before.out,
        `in ${before.in} -> ${after('in')}, out ${before.out} -> ${after('out')}`,
      );
      assert.equal(g.get('mlds_config_generation')!.samples[0].value, 2);
    } finally {
      await w.close();
      await svc.close();
      sd.cleanup();
      await broker.cleanup();
    }
  },
);

test('a temperature or clock state /status does not know has no sample; a known one has', async () => {
  const status = (temperatureC: number | null, synchronized: boolean | null) =>
    ({
      service: 'mlds',
      version: '0.0.0',
      identity: { hostname: 'h', addresses: [] },
      uptimeSeconds: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
      time: '2026-01-01T00:00:01.000Z',
      timezone: 'UTC',
      config: { status: 'ok', file: 'c.json' },
      displays: [],
      problems: [],
      recentFaults: [],
      components: {
        health: {
          temperatureC,
          clock: { synchronized, source: 'x', held: null },
          disks: [],
          load: [0.5, 0, 0],
          memory: { totalBytes: 1, availableBytes: 1, serviceRssBytes: 1 },
        },
      },
    }) as unknown as Status;
  // Imported here: the first test checks that nothing loaded prom-client before its scrape.
  const { renderMetrics } = await import('../../src/monitor/metrics.js');
  const unknown = parse((await renderMetrics(status(null, null))).body);
  assert.equal(unknown.get('mlds_temperature_celsius')!.samples.length, 0);
  assert.equal(unknown.get('mlds_clock_synchronized')!.samples.length, 0);
  const known = (await renderMetrics(status(41.5, false))).body;
  if (hasPromtool) assert.deepEqual(promtool(known), { status: 0, out: '' });
  assert.deepEqual(parse(known).get('mlds_temperature_celsius')!.samples, [{ labels: {}, value: 41.5 }]);
  assert.deepEqual(parse(known).get('mlds_clock_synchronized')!.samples, [{ labels: {}, value: 0 }]);
});
