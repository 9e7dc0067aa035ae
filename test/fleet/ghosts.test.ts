// No ghosts: a unit renamed through unit.json, or a display removed, leaves nothing retained on
// the broker under the old names, Home Assistant's discovery and light state included. Checked
// as an operator would: a fresh subscription to `#` on Debian's mosquitto, after the rename.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;

/** The retained messages the broker holds now: a fresh subscription to `#`, read until `ready` says all came. */
async function retainedNow(url: string, ready: (topics: string[]) => boolean, what: string): Promise<string[]> {
  let topics: string[] = [];
  await until(
    async () => {
      const w = await Watcher.open(url, ['#']);
      try {
        // The broker sends every retained message right after the SUBACK; the unit's own status is among them.
        await until(() => ready(w.seen.filter((s) => s.retain).map((s) => s.topic)), 2000, 'retained messages').catch(
          () => {},
        );
        topics = w.seen.filter((s) => s.retain && s.payload !== '').map((s) => s.topic);
        return ready(topics);
      } finally {
        await w.close();
      }
    },
    15_000,
    what,
  );
  return topics;
}

const under = (topics: string[], name: string) =>
  topics.filter((t) => t.split('/').includes(name) || t.includes(`/${name}/`));

test(
  'renamed through unit.json, and a display removed: nothing stays retained under the old name; renamed while ' +
    'stopped too',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const c = baseConfig();
    c.displays.side = {
      ...structuredClone(c.displays.main),
      displayName: 'Side',
      displayIp: '127.0.0.2',
      displayPort: '9002',
    };
    c.mqtt = { url: broker.url, unit: 'sign.old', homeAssistant: true, statusIntervalSeconds: 3600 };
    const sd = serviceDir(c);
    mkdirSync(sd.stateDir, { recursive: true });
    const unitFile = path.join(sd.stateDir, 'unit.json');
    let svc: RunningService | undefined;
    try {
      svc = await start(sd);
      const first = await retainedNow(
        broker.url,
        (t) =>
          t.includes('homeassistant/light/sign_old/side/config') &&
          t.includes('mlds/sign.old/status') &&
          t.includes('mlds/sign.old/light/side/state'),
        'the first retained status, discovery and light states',
      );
      assert.ok(
        first.includes('homeassistant/light/sign_old/config'),
        'discovery topic parts are reduced to [a-zA-Z0-9_-]',
      );
      assert.ok(first.includes('mlds/sign.old/availability'));

      // Renamed, and the side display removed, by the unit's own part.
      writeFileSync(unitFile, JSON.stringify({ mqtt: { unit: 'sign-new' }, displays: { side: null } }));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      const after = await retainedNow(
        broker.url,
        (t) =>
          t.includes('mlds/sign-new/status') && under(t, 'sign.old').length === 0 && under(t, 'sign_old').length === 0,
        'the new name retained and nothing under the old',
      );
      assert.ok(after.includes('homeassistant/light/sign-new/config'));
      assert.deepEqual(
        after.filter((t) => t.includes('side')),
        [],
        'the removed display left nothing retained',
      );

      // Renamed while stopped: the next start clears what the last run published.
      await svc.close();
      svc = undefined;
      writeFileSync(unitFile, JSON.stringify({ mqtt: { unit: 'sign-third' }, displays: { side: null } }));
      svc = await start(sd);
      const third = await retainedNow(
        broker.url,
        (t) => t.includes('mlds/sign-third/status') && under(t, 'sign-new').length === 0,
        'the third name retained and nothing under the second',
      );
      assert.ok(third.includes('homeassistant/light/sign-third/config'));
      assert.deepEqual(
        third.filter((t) => !t.includes('sign-third')),
        [],
        `only the current name: ${third.join(', ')}`,
      );
    } finally {
      await svc?.close();
      await broker.stop();
      sd.cleanup();
    }
  },
);
