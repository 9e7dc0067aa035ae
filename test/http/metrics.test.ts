// GET /metrics: the Prometheus text format from prom-client, loaded only on the first scrape,
// carrying the /status keys (frames per unit, output, commands by source and result,
// confirmations by value, health).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { baseConfig, get, nextFrame, serviceDir, start } from '../helpers/service.js';
import { emulated } from '../helpers/emulation.js';

const require = createRequire(import.meta.url);
const promLoaded = () => Object.keys(require.cache).some((k) => k.includes('/prom-client/'));

/** Every sample line of the text format (https://prometheus.io/docs/instrumenting/exposition_formats/), strictly. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const types = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const t = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (t) { if (t[1] === 'TYPE') { assert.match(t[3], /^(gauge|counter|histogram|summary|untyped)$/); types.add(t[2]); } continue; }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|NaN|\+Inf|-Inf))$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    assert.ok(types.has(m[1]), `${m[1]} has no TYPE line`);
    out.set(m[1] + (m[2] ?? ''), Number(m[3]));
  }
  return out;
}

test('/metrics parses as Prometheus text and carries the /status keys; prom-client loads on the first scrape only', async () => {
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
    const m = parse(res.text);
    const unit = (svc.api.status().displays[0]).unit;
    assert.ok(m.get(`mlds_frames_rendered{unit="${unit}"}`)! >= 1);
    assert.ok(m.has(`mlds_frames_sent{unit="${unit}"}`) && m.has(`mlds_frames_missed{unit="${unit}"}`));
    assert.equal(m.get(`mlds_output_consecutive_failures{unit="${unit}",driver="virtual"}`), 0);
    assert.equal(m.get('mlds_commands{source="http",result="ok"}'), 1);
    assert.equal(m.get('mlds_commands{source="http",result="fault"}'), 1);
    assert.ok(m.get('mlds_confirmations{confirm="2"}')! >= 1);
    assert.ok(m.get('mlds_memory_available_bytes')! > 0, 'memory available');
    // qemu-user's /proc/self/stat has no resident size: process.memoryUsage.rss() is 0 there.
    assert.ok(emulated ? m.get('mlds_service_rss_bytes') === 0 : m.get('mlds_service_rss_bytes')! > 0, `service RSS ${m.get('mlds_service_rss_bytes')}`);
    assert.ok(m.has('mlds_disk_free_bytes{folder="state"}'));
    assert.equal(m.has('mlds_broker_state{state="connected"}'), false, 'no broker series without mqtt');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
