// Health an operator watches (temperature, clock, disks, load, memory) and the clock guard:
// a unit that boots in 1970 shows no wrong date, runs no time-of-day cron and holds its
// daylight schedule, and /info says why.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BUILD_YEAR, clockHeld } from '../../src/time/clock-guard.js';
import { HealthMonitor } from '../../src/monitor/health.js';
import { timeOfDay } from '../../src/schedule/crons.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, decode, get, nextFrame, serviceDir, start } from '../helpers/service.js';
import { emulated } from '../helpers/emulation.js';
import { until } from '../helpers/wait.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("the SoC zone's temperature, the free space of each folder, load and memory", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-thermal-'));
  try {
    for (const [zone, type, milli] of [
      ['thermal_zone0', 'acpitz', '27800'],
      ['thermal_zone1', 'cpu-thermal', '61250'],
    ]) {
      mkdirSync(path.join(dir, zone));
      writeFileSync(path.join(dir, zone, 'type'), `${type}\n`);
      writeFileSync(path.join(dir, zone, 'temp'), `${milli}\n`);
    }
    const h = new HealthMonitor({ state: dir, log: undefined, gone: path.join(dir, 'missing') }, dir).report();
    assert.equal(h.temperatureC, 61.3);
    assert.equal(h.temperatureZone, 'thermal_zone1 (cpu-thermal)');
    assert.deepEqual(
      h.disks.map((d) => d.folder),
      ['state'],
    );
    assert.ok(h.disks[0].freeBytes > 0 && h.disks[0].freeBytes <= h.disks[0].totalBytes);
    assert.equal(h.load.length, 3);
    assert.ok(h.memory.availableBytes > 0 && h.memory.availableBytes <= h.memory.totalBytes);
    // qemu-user's /proc/self/stat has no resident size: process.memoryUsage.rss() is 0 there.
    assert.ok(
      emulated ? h.memory.serviceRssBytes === 0 : h.memory.serviceRssBytes > 10e6,
      `service RSS ${h.memory.serviceRssBytes} bytes`,
    );
    // Anonymous memory is part of RSS, and the heap alone is anonymous.
    const anon = h.memory.serviceAnonymousBytes;
    if (!emulated)
      assert.ok(
        anon !== null && anon >= process.memoryUsage().heapUsed && anon < h.memory.serviceRssBytes,
        `anonymous ${anon} of RSS ${h.memory.serviceRssBytes}`,
      );
    assert.equal(new HealthMonitor({}, path.join(dir, 'none')).report().temperatureC, null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the clock is held before the build year and trusted from it; crons bound to a time of day are told apart', () => {
  assert.match(clockHeld(Date.UTC(1970, 0, 1, 0, 0, 5))!, /1970-01-01T00:00:05.000Z, before \d{4}/);
  assert.equal(clockHeld(Date.UTC(BUILD_YEAR, 0, 1)), undefined);
  assert.ok(timeOfDay('0 30 6 * * *'));
  assert.ok(timeOfDay('0 0 0 * * 1'));
  assert.ok(timeOfDay('30 6 * * *'));
  assert.ok(!timeOfDay('*/10 * * * * *'));
  assert.ok(!timeOfDay('0 */5 * * * *'));
});

test(
  'booted in 1970: date areas show nothing (they have no defaultValue), a time-of-day cron holds, the ' +
    'daylight schedule holds at full brightness, /info says why',
  async () => {
    const cfg = baseConfig();
    cfg.latitude = '52.2';
    cfg.longitude = '21.0';
    cfg.displays.main.layout.clock = {
      now: { coordinates: '0 0 199 99', type: 'date', dateFormat: 'yyyy-MM-dd', fontSize: '40' },
    };
    cfg.crons = [
      { type: 'data', cron: '0 0 3 * * *', value: 'id=main&layout=l2&other=Night' },
      { type: 'data', cron: '*/10 * * * * *', value: 'id=main&layout=clock' },
    ];
    const sd = serviceDir(cfg);
    const clock = new FakeClock(Date.UTC(1970, 0, 1, 2, 59, 0));
    const svc = await start(sd, { clock });
    try {
      clock.advance(61_000);
      const ran = () => (svc.api.status().components as Obj).crons.crons as Obj[];
      await until(
        () => ran()[1].lastResult !== undefined && ran().every((c) => !c.running),
        5000,
        'the crons of that minute to finish',
      );
      const st = (await get(svc, '/status')).json as Obj;
      const crons = st.components.crons.crons as Obj[];
      assert.match(crons[0].message, /^held: the clock shows 1970/);
      assert.equal(crons[1].lastResult, 'ok', 'an every-10-s cron still runs');
      const area = st.displays[0].areas.find((a: Obj) => a.id === 'now');
      assert.equal(area.text, '');
      assert.equal(svc.controller().state('main').layout, 'clock');
      await nextFrame(svc, 'main', -1);
      const shot = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
      let lit = 0;
      for (let y = 0; y < shot.height; y += 2)
        for (let x = 0; x < shot.width; x += 2) if (shot.at(x, y).some((v) => v > 60)) lit++;
      assert.equal(lit, 0, 'no date drawn');
      const b = st.components.brightness.units[0];
      assert.equal(b.brightness, 100);
      assert.match(b.source, /held/);
      assert.ok((st.problems as Obj[]).some((p) => p.source === 'clock'));
      const h = st.components.health as Obj;
      assert.match(h.clock.held, /before \d{4}/);
      assert.ok(Array.isArray(h.disks) && 'temperatureC' in h && h.memory.totalBytes > 0);
      const info = await get(svc, '/info');
      assert.match(info.text, /the clock shows 1970-01-01T03:00:01.000Z/);
      assert.match(info.text, /data-component="health"[\s\S]*Clock guard[\s\S]*Free in state/);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
