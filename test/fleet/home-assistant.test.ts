// Home Assistant discovery through a real Mosquitto: each unit's panel as a light entity whose
// discovery holds only keys Home Assistant documents for the MQTT light's JSON schema (none of
// the deprecated ones), retained, sent again when Home Assistant says `online`. OFF blanks the
// panel (dark on the wire, content and commands kept), ON restores it, a brightness sets the
// manual level; the state is published when it changes, not with every status. Discovery topic
// ids hold only what Home Assistant takes (`[a-zA-Z0-9_-]`), and `mlds test` warns of two units
// whose ids reduce to one topic.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { brightnessTable } from '../../src/output/pixel-format.js';
import { VERSION } from '../../src/version.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { mldsTest, baseConfig, decode, get, near, serviceDir, start, until } from '../helpers/service.js';
import { ddpReceiver } from '../output/ddp-receiver.js';
import { rgbOf } from '../output/frames.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;

/**
 * The configuration keys of Home Assistant's MQTT light with `schema: json`
 * (https://www.home-assistant.io/integrations/light.mqtt/#json-schema), the entity keys every
 * MQTT entity shares, and the discovery-only `origin`; the deprecated ones are listed apart.
 */
const LIGHT_JSON_KEYS = new Set([
  'availability',
  'availability_mode',
  'availability_template',
  'availability_topic',
  'brightness_scale',
  'color_temp_kelvin',
  'command_topic',
  'default_entity_id',
  'device',
  'effect',
  'effect_list',
  'enabled_by_default',
  'encoding',
  'entity_category',
  'entity_picture',
  'flash',
  'flash_time_long',
  'flash_time_short',
  'icon',
  'json_attributes_template',
  'json_attributes_topic',
  'max_kelvin',
  'max_mireds',
  'min_kelvin',
  'min_mireds',
  'name',
  'optimistic',
  'origin',
  'payload_available',
  'payload_not_available',
  'platform',
  'qos',
  'retain',
  'schema',
  'state_topic',
  'supported_color_modes',
  'transition',
  'unique_id',
  'white_scale',
]);
const DEPRECATED = ['object_id', 'brightness', 'color_mode', 'color_temp', 'hs', 'rgb', 'xy', 'white_value'];
const DEVICE_KEYS = new Set([
  'configuration_url',
  'connections',
  'hw_version',
  'identifiers',
  'manufacturer',
  'model',
  'model_id',
  'name',
  'serial_number',
  'suggested_area',
  'sw_version',
  'via_device',
]);
const ORIGIN_KEYS = new Set(['name', 'sw_version', 'support_url']);

test(
  'discovery holds the documented keys of the JSON-schema light, is retained, re-sent on homeassistant/status ' +
    'online; its brightness commands set the level; a clean stop publishes offline',
  { skip },
  async () => {
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

      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const doc = JSON.parse(c.payload) as Record<string, any>;
      assert.deepEqual(
        Object.keys(doc).filter((k) => !LIGHT_JSON_KEYS.has(k)),
        [],
        'every key is one Home Assistant documents',
      );
      assert.deepEqual(
        DEPRECATED.filter((k) => k in doc),
        [],
        'no deprecated key',
      );
      assert.deepEqual(
        Object.keys(doc.device).filter((k) => !DEVICE_KEYS.has(k)),
        [],
      );
      assert.deepEqual(
        Object.keys(doc.origin).filter((k) => !ORIGIN_KEYS.has(k)),
        [],
      );
      assert.equal(doc.schema, 'json');
      assert.equal(doc.command_topic, 'mlds/u1/light/main/set');
      assert.equal(doc.state_topic, 'mlds/u1/light/main/state');
      assert.equal(doc.availability_topic, 'mlds/u1/availability');
      assert.deepEqual(doc.supported_color_modes, ['brightness']);
      assert.equal(doc.brightness_scale, 100);
      assert.equal(doc.unique_id, 'mlds_u1_main');
      assert.equal(doc.default_entity_id, 'light.mlds_u1_main');
      assert.deepEqual(doc.origin, { name: 'mlds', sw_version: VERSION });
      assert.equal(doc.device.sw_version, VERSION);
      const port = new URL(svc.url).port;
      assert.match(doc.device.configuration_url, new RegExp(`^http://[^/]+:${port}/info$`), "the unit's /info");

      await w.publish('homeassistant/status', 'online');
      await until(() => configs().length === 2, 3000, 'discovery re-sent');

      await w.publish('mlds/u1/light/main/set', '{"state":"ON","brightness":40}');
      const brightness = () =>
        (svc.api.status().components.brightness as { units: Array<{ brightness: number }> }).units[0].brightness;
      await until(() => brightness() === 40, 3000, 'brightness 40');
      await until(
        () => w.on('mlds/u1/light/main/state').some((s) => JSON.parse(s.payload).brightness === 40 && s.retain),
        3000,
        'state 40',
      );
      await w.publish('mlds/u1/light/main/set', '{"state":"ON","brightness":400}');
      // the passing of time is what is tested: an out-of-range value changes nothing within 300 ms.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(brightness(), 40, 'an out-of-range value is not taken');

      // A reload that adds a physical unit announces its light too, beside the first.
      const more = JSON.parse(readFileSync(sd.configFile, 'utf8'));
      more.displays.second = { ...more.displays.main, displayPort: '9002', displayName: 'Second' };
      writeFileSync(sd.configFile, JSON.stringify(more));
      await svc.runtime.reload();
      await until(
        () => w.on('homeassistant/light/u1/second/config').length === 1,
        3000,
        'discovery of the second unit',
      );
      const second = JSON.parse(w.on('homeassistant/light/u1/second/config')[0].payload);
      assert.equal(second.command_topic, 'mlds/u1/light/second/set');
      assert.equal(second.default_entity_id, 'light.mlds_u1_second');

      // A clean stop says `offline` itself (retained), without waiting for the Last Will.
      await svc.close();
      closed = true;
      await until(
        () => w.on('mlds/u1/availability').some((s) => s.payload === 'offline' && s.retain),
        2000,
        'offline on a clean stop',
      );
    } finally {
      if (!closed) await svc.close();
      await w.close();
      await broker.cleanup();
      sd.cleanup();
    }
  },
);

test(
  'OFF blanks the panel on the wire while its content and commands are kept, ON restores it, a brightness sets ' +
    'the level; the state is published on change only',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const cfg = baseConfig();
    const size = 200 * 100 * 3;
    const rx = await ddpReceiver(size);
    cfg.displays.main.sensorBrightness = 'true';
    cfg.displays.main.output = { driver: 'ddp' };
    cfg.displays.main.displayPort = String(rx.port);
    cfg.mqtt = { url: broker.url, unit: 'u2', homeAssistant: true };
    const sd = serviceDir(cfg);
    const w = await Watcher.open(broker.url, ['mlds/u2/light/#', 'mlds/u2/status']);
    const svc = await start(sd);
    const states = () =>
      w
        .on('mlds/u2/light/main/state')
        .map((s) => JSON.parse(s.payload) as { state: string; brightness: number; color_mode: string });
    const set = (payload: object) => w.publish('mlds/u2/light/main/set', JSON.stringify(payload));
    const last = () => rx.pictures.at(-1);
    /** The wire's newest picture is the compositor's frame through the level's table (100: as drawn). */
    const wireAt = (percent: number) => {
      const rgb = rgbOf(svc.api.frame('main')!);
      const lut = brightnessTable(percent);
      return last()?.equals(lut ? Buffer.from(rgb.map((v) => lut[v])) : rgb) ?? false;
    };
    const dark = () => last()?.every((b) => b === 0) ?? false;
    const unitFacts = () =>
      (svc.api.status().components.brightness as { units: Array<{ brightness: number; blanked: boolean }> }).units[0];
    try {
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Hello')).status, 200);
      await until(() => last()?.some((b) => b !== 0) ?? false, 5000, 'the layout on the wire');
      await until(() => states().length === 1, 5000, 'the first state');
      assert.deepEqual(states()[0], { state: 'ON', brightness: 100, color_mode: 'brightness' });

      // A change that is not the light's: the status topic hears of it, the state topic does not.
      const statuses = w.on('mlds/u2/status').length;
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Again')).status, 200);
      await until(() => w.on('mlds/u2/status').length > statuses, 5000, 'a status after the command');
      await w.publish('mlds/u2/light/main/set', '{"state":"DIM"}');
      await until(() => states().length === 2, 3000, 'the state answered to a command it refused');
      assert.deepEqual(states()[1], states()[0], 'a refused command gets the state as it is');
      const statusCount = w.on('mlds/u2/status').length;
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Third')).status, 200);
      await until(() => w.on('mlds/u2/status').length > statusCount, 5000, 'another status');
      assert.equal(states().length, 2, 'no state with a status that changed nothing of the light');

      await set({ state: 'OFF' });
      await until(() => states().at(-1)?.state === 'OFF', 3000, 'state OFF');
      assert.deepEqual(states().at(-1), { state: 'OFF', brightness: 100, color_mode: 'brightness' });
      await until(dark, 3000, 'a dark picture on the wire');
      assert.deepEqual(unitFacts(), { ...unitFacts(), blanked: true, brightness: 100 });
      assert.equal((svc.api.status().displays[0].output!.details as { brightness: number }).brightness, 0);

      // Blanked: a command is taken and drawn, the wire stays dark, /screenshot shows the content.
      const pictures = rx.pictures.length;
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Hidden')).status, 200);
      await until(() => rx.pictures.length > pictures, 3000, 'the new content sent');
      assert.ok(dark(), 'the new content goes out dark');
      assert.equal(svc.api.status().displays[0].areas.find((a) => a.id === 'title')?.value, 'Hidden');
      const shot = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
      assert.ok(
        near(shot.at(195, 5), [0, 0, 255]),
        `the screenshot shows the content (the title's blue), not black: ${shot.at(195, 5)}`,
      );

      await set({ state: 'ON' });
      await until(() => wireAt(100), 3000, 'the content at 100 % on the wire');
      assert.deepEqual(states().at(-1), { state: 'ON', brightness: 100, color_mode: 'brightness' });
      assert.equal(unitFacts().blanked, false);

      await set({ state: 'ON', brightness: 40 });
      await until(() => wireAt(40), 3000, 'the content at 40 % on the wire');
      await until(() => states().at(-1)?.brightness === 40, 3000, 'state 40');

      // OFF, then one command that switches on at a new level.
      await set({ state: 'OFF' });
      await until(dark, 3000, 'dark again');
      await set({ state: 'ON', brightness: 60 });
      await until(() => wireAt(60), 3000, 'the content at 60 % on the wire');
      await until(() => states().at(-1)?.brightness === 60 && states().at(-1)?.state === 'ON', 3000, 'state ON 60');
      const byContent = states().map((s) => `${s.state} ${s.brightness}`);
      assert.deepEqual(
        byContent,
        ['ON 100', 'ON 100', 'OFF 100', 'ON 100', 'ON 40', 'OFF 40', 'ON 60'],
        'one state per change',
      );
    } finally {
      await svc.close();
      await w.close();
      await broker.cleanup();
      await rx.close().catch(() => undefined);
      sd.cleanup();
    }
  },
);

test(
  'a unit named after its hostname (sign.031) and a display id with a space: the discovery topics hold only ' +
    '[a-zA-Z0-9_-], the names stay readable; a level set from Home Assistant is recorded as set from it',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const cfg = baseConfig();
    cfg.displays.main.sensorBrightness = 'true';
    cfg.displays['front door'] = {
      ...structuredClone(cfg.displays.main),
      displayPort: '9002',
      displayName: 'Front door',
    };
    cfg.mqtt = { url: broker.url, unit: 'sign.031', homeAssistant: true };
    const sd = serviceDir(cfg);
    const w = await Watcher.open(broker.url, ['homeassistant/#', 'mlds/sign.031/light/#']);
    const svc = await start(sd, { logDir: path.join(sd.dir, 'logs') });
    try {
      await until(() => w.seen.filter((s) => s.topic.endsWith('/config')).length >= 2, 5000, 'discovery of both units');
      const topics = w.seen
        .filter((s) => s.topic.startsWith('homeassistant/light/'))
        .map((s) => s.topic)
        .sort();
      assert.deepEqual(topics, [
        'homeassistant/light/sign_031/config',
        'homeassistant/light/sign_031/front_door/config',
      ]);
      for (const t of topics) assert.match(t.split('/').slice(2, -1).join('/'), /^[a-zA-Z0-9_-]+(\/[a-zA-Z0-9_-]+)?$/);
      const first = JSON.parse(w.on('homeassistant/light/sign_031/config')[0].payload);
      const second = JSON.parse(w.on('homeassistant/light/sign_031/front_door/config')[0].payload);
      assert.deepEqual(
        [first.name, second.name, first.device.name],
        ['Test display', 'Front door', 'sign.031'],
        'the readable names',
      );
      assert.equal(second.command_topic, 'mlds/sign.031/light/front door/set');
      assert.notEqual(first.unique_id, second.unique_id);

      await w.publish('mlds/sign.031/light/main/set', '{"state":"ON","brightness":40}');
      type Units = { units: Array<{ id: string; brightness: number; source: string }> };
      const unit = () => (svc.api.status().components.brightness as Units).units.find((u) => u.id === 'main')!;
      await until(() => unit().brightness === 40, 3000, 'brightness 40');
      assert.match(unit().source, /^manual: 40 % set from Home Assistant \(MQTT\) at /);
      const info = (await get(svc, '/info')).text;
      assert.match(info, /set from Home Assistant/, '/info tells the source too');
    } finally {
      await svc.close();
      await w.close();
      await broker.cleanup();
    }
    const log = readFileSync(path.join(sd.dir, 'logs', 'mlds.log'), 'utf8');
    assert.match(log, /manual brightness set from Home Assistant/);
    assert.doesNotMatch(log, /set over HTTP/);
    sd.cleanup();
  },
);

test("mlds test warns when two units' display ids reduce to one discovery topic, and still exits 0", () => {
  const cfg = baseConfig();
  cfg.displays['front door'] = { ...structuredClone(cfg.displays.main), displayPort: '9002' };
  cfg.displays['front.door'] = { ...structuredClone(cfg.displays.main), displayPort: '9003' };
  cfg.displays['rear door'] = { ...structuredClone(cfg.displays.main), displayPort: '9004' };
  cfg.mqtt = { url: 'mqtt://127.0.0.1:1883', unit: 'sign.031', homeAssistant: true };
  const sd = serviceDir(cfg);
  try {
    const r = mldsTest(sd);
    assert.equal(r.status, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => /discover/.test(l));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(
      warnings[0],
      /^mlds: warning: \/displays\/front\.door: .*homeassistant\/light\/sign_031\/front_door\/config.*"front door"/,
    );
    // Without Home Assistant there is no discovery, and no warning.
    cfg.mqtt.homeAssistant = false;
    writeFileSync(sd.configFile, JSON.stringify(cfg));
    const quiet = mldsTest(sd);
    assert.equal(quiet.status, 0, quiet.stderr);
    assert.doesNotMatch(quiet.stderr, /discover/);
  } finally {
    sd.cleanup();
  }
});
