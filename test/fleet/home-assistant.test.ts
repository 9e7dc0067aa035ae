// Home Assistant discovery through a real Mosquitto: the MAIN brightness as a light entity,
// retained, sent again when Home Assistant says `online`, and its brightness commands taken.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, serviceDir, start, until } from '../helpers/service.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;

test('discovery of the MAIN brightness is retained, re-sent on homeassistant/status online, its commands set the brightness; a clean stop publishes offline', { skip }, async () => {
  const broker = await new Broker().start();
  const cfg = baseConfig();
  cfg.displays.main.sensorBrightness = 'true';
  cfg.mqtt = { url: broker.url, unit: 'u1', homeAssistant: true };
  const sd = serviceDir(cfg);
  const w = await Watcher.open(broker.url, ['homeassistant/#', 'mlds/u1/light/#', 'mlds/u1/availability']);
  const svc = await start(sd);
  let closed = false;
  try {
    const configs = () => w.on('homeassistant/light/u1/config');
    await until(() => configs().length === 1, 5000, 'discovery');
    const c = configs()[0];
    assert.equal(c.retain, true);
    assert.equal(c.qos, 1);
    const doc = JSON.parse(c.payload) as Record<string, unknown>;
    assert.equal(doc.command_topic, 'mlds/u1/light/main/set');
    assert.equal(doc.state_topic, 'mlds/u1/light/main/state');
    assert.equal(doc.availability_topic, 'mlds/u1/availability');
    assert.equal(doc.brightness_scale, 100);
    assert.equal(doc.unique_id, 'mlds_u1_main');

    await w.publish('homeassistant/status', 'online');
    await until(() => configs().length === 2, 3000, 'discovery re-sent');

    await w.publish('mlds/u1/light/main/set', '{"state":"ON","brightness":40}');
    const brightness = () => (svc.api.status().components.brightness as { units: Array<{ brightness: number }> }).units[0].brightness;
    await until(() => brightness() === 40, 3000, 'brightness 40');
    await until(() => w.on('mlds/u1/light/main/state').some((s) => JSON.parse(s.payload).brightness === 40 && s.retain), 3000, 'state 40');
    await w.publish('mlds/u1/light/main/set', '{"state":"ON","brightness":400}');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(brightness(), 40, 'an out-of-range value is not taken');

    // A reload that adds a physical unit announces its MAIN brightness too, beside the first.
    const more = JSON.parse(readFileSync(sd.configFile, 'utf8'));
    more.displays.second = { ...more.displays.main, displayPort: '9002', displayName: 'Second' };
    writeFileSync(sd.configFile, JSON.stringify(more));
    await svc.runtime.reload();
    await until(() => w.on('homeassistant/light/u1/second/config').length === 1, 3000, 'discovery of the second unit');
    assert.equal(JSON.parse(w.on('homeassistant/light/u1/second/config')[0].payload).command_topic, 'mlds/u1/light/second/set');

    // A clean stop says `offline` itself (retained), without waiting for the Last Will.
    await svc.close();
    closed = true;
    await until(() => w.on('mlds/u1/availability').some((s) => s.payload === 'offline' && s.retain), 2000, 'offline on a clean stop');
  } finally {
    if (!closed) await svc.close();
    await w.close();
    await broker.cleanup();
    sd.cleanup();
  }
});
