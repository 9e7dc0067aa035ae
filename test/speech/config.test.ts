// The `speech` section and the `speak` area field as the configuration check reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configFaults } from '../helpers/config-faults.js';
import { loadServiceConfig } from '../../src/runtime/load-config.js';
import type { AreaOf } from '../../src/config/types.js';
import { baseConfig, serviceDir } from '../helpers/service.js';

test(
  'speech defaults: voice en, rate 160, volume 80, no ' + 'chime, no quiet hours; speak is read on sign-text areas',
  () => {
    const c = baseConfig();
    c.speech = {};
    c.displays.main.layout.l1.title.speak = 'true';
    const sd = serviceDir(c);
    try {
      const cfg = loadServiceConfig(sd.configFile);
      assert.deepEqual(cfg.speech, { voice: 'en', rate: 160, volume: 80, chime: undefined, quietHours: undefined });
      const title = cfg.displayById
        .get('main')!
        .layouts.get('l1')!
        .areas.find((a) => a.id === 'title') as AreaOf<'text'>;
      assert.equal(title.speak, true);
    } finally {
      sd.cleanup();
    }
  },
);

test('a chime in sounds/ and quiet hours over midnight are taken', () => {
  const c = baseConfig();
  c.speech = { voice: 'en-us+f2', rate: '140', volume: '100', chime: 'gong.wav', quietHours: '22:30-06:15' };
  const sd = serviceDir(c);
  try {
    mkdirSync(path.join(sd.dir, 'sounds'));
    writeFileSync(path.join(sd.dir, 'sounds', 'gong.wav'), 'RIFF');
    const s = loadServiceConfig(sd.configFile).speech!;
    assert.equal(path.basename(s.chime!), 'gong.wav');
    assert.deepEqual(s.quietHours, { from: 22 * 60 + 30, to: 6 * 60 + 15, text: '22:30-06:15' });
    assert.deepEqual([s.voice, s.rate, s.volume], ['en-us+f2', 140, 100]);
  } finally {
    sd.cleanup();
  }
});

test(
  'faults name the field: a missing chime, a chime outside sounds/, a voice that could be an option, equal ' +
    'quiet hours, an hour 24, a rate out of range, speak on an image area',
  () => {
    const paths = (speech: Record<string, unknown>) =>
      configFaults((c) => {
        c.speech = speech;
      }).map((f) => f.path);
    assert.deepEqual(paths({ chime: 'missing.wav' }), ['/speech/chime']);
    assert.deepEqual(paths({ chime: '../config.json' }), ['/speech/chime']);
    assert.ok(paths({ voice: '-w/tmp/x' }).includes('/speech/voice'));
    assert.deepEqual(paths({ quietHours: '06:00-06:00' }), ['/speech/quietHours']);
    assert.ok(paths({ quietHours: '22:00-24:00' }).includes('/speech/quietHours'));
    assert.ok(paths({ rate: '20' }).includes('/speech/rate'));
    assert.ok(paths({ volume: '101' }).includes('/speech/volume'));
    const f = configFaults((c) => {
      c.displays.main.layout.l1.pic.speak = true;
    });
    assert.ok(
      f.some((x) => x.path.endsWith('/pic/speak')),
      JSON.stringify(f),
    );
  },
);
