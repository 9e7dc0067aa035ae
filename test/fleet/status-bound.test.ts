// The retained status's bound with an update section: a real /status of a unit with 40 displays
// showing long texts and a long problem list, given the longest update facts RAUC could report
// (a slot name and a version far over their cuts), still summarizes under 2 KB, keeping the
// update whole and counting the displays left out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { MQTT_DEFAULTS } from '../../src/config/mqtt.js';
import { compactStatus, STATUS_MAX_BYTES, STATUS_MIN_GAP_MS } from '../../src/fleet/fleet-status.js';
import type { Status } from '../../src/capability/status-types.js';
import type { UpdateStatus } from '../../src/capability/update-status.js';
import { baseConfig, get, REPO, serviceDir, start, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';

let sd: ServiceDir, svc: RunningService;

before(async () => {
  const c = baseConfig();
  for (let i = 1; i < 40; i++)
    c.displays[`side-display-${i}`] = { ...structuredClone(c.displays.main), output: { driver: 'virtual' } };
  sd = serviceDir(c);
  svc = await start(sd);
  for (const id of Object.keys(c.displays))
    assert.equal((await get(svc, `/mlds?id=${id}&layout=l1&title=${'Long departure text '.repeat(10)}`)).status, 200);
});

after(async () => {
  await svc?.close();
  sd?.cleanup();
});

test('40 displays, long problems and the longest update facts: under 2 KB, the update kept whole', async () => {
  const s = (await get(svc, '/status')).json as unknown as Status;
  s.problems = Array.from({ length: 10 }, (_, i) => ({
    source: `source-${i}`,
    message: 'x'.repeat(500),
    since: new Date().toISOString(),
  }));
  const update: UpdateStatus = {
    state: 'installing',
    percent: 99,
    message: 'm'.repeat(2000),
    bootSlot: 'slot-with-a-very-long-boot-name-indeed',
    slots: Array.from({ length: 8 }, (_, i) => ({
      name: `rootfs.${i}`,
      bootname: `S${i}`,
      state: 'inactive',
      version: 'v'.repeat(300),
    })),
    last: {
      outcome: 'fell-back',
      version: '2026.11.29-rc.1+build.4711.g0123456789abcdef0123456789abcdef',
      slot: 'B',
      from: 'A',
      at: new Date().toISOString(),
      message: 'y'.repeat(2000),
    },
  };
  s.components = { ...s.components, update };
  const text = compactStatus(s);
  assert.ok(Buffer.byteLength(text) < STATUS_MAX_BYTES, `${Buffer.byteLength(text)} bytes`);
  const doc = JSON.parse(text) as { update: Record<string, unknown>; displays: unknown[]; displaysNotListed?: number };
  assert.equal(doc.update.state, 'installing');
  assert.equal(doc.update.percent, 99);
  assert.equal(doc.update.outcome, 'fell-back');
  assert.equal((doc.update.slot as string).length, 16);
  assert.equal((doc.update.version as string).length, 32);
  assert.ok(doc.displaysNotListed! > 0 && doc.displays.length + doc.displaysNotListed! === 40);
});

test('docs/fleet.md tells the status topic as the code sends it: how often, and that health is not on it', async () => {
  const doc = readFileSync(path.join(REPO, 'docs/fleet.md'), 'utf8').replace(/\s+/g, ' ');
  // Every place saying how often a unit sends its status (the page tells no other rate this way)
  // names the gap and the interval the code uses.
  const rates = [...doc.matchAll(/at most onc?e ([^,.)]+)/gi)].map((m) => m[1].trim());
  assert.ok(rates.length >= 3, `the docs tell the rate: ${rates}`);
  for (const r of rates) assert.match(r, new RegExp(`^every ${STATUS_MIN_GAP_MS / 1000} s\\b`), `"at most once ${r}"`);
  assert.match(doc, new RegExp(`every \`statusIntervalSeconds\`, ${MQTT_DEFAULTS.statusIntervalSeconds} s by default`));
  // What components.health holds rides on the status topic only if the summary carries it.
  const summary = JSON.parse(compactStatus((await get(svc, '/status')).json as unknown as Status)) as Record<
    string,
    unknown
  >;
  assert.equal('health' in summary || 'temperatureC' in summary, false, 'the summary has no health');
  const health = /`components\.health` carries[^]*?boots in 1970/.exec(doc)?.[0] ?? '';
  assert.ok(health, 'the docs describe components.health');
  assert.doesNotMatch(health, /rides on the status topic/, 'the docs put health on the status topic');
  assert.match(health, /status topic does not carry them/);
});
