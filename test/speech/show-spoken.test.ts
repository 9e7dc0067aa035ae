// What is said is shown: a display's `showSpoken` area carries each announcement's text as a
// priority level (source `speech`) from the start of its speech to its end, then the sign
// shows what it showed before, which is not said again; an area's own value is not shown twice.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { readWav, speechConfig, wavFolder, speechIdle, speechOf } from './audio.js';

type Entry = {
  layout: string;
  area: string;
  value: string | null;
  source: string;
  priority: number;
  start: string;
  end: string | null;
};
type Speech = {
  counts: Record<string, number>;
  speaking: { text: string } | null;
  queue: unknown[];
  last: { text: string; source: string } | null;
};
let sink: ReturnType<typeof wavFolder>;
let out: string, sd: ServiceDir, svc: RunningService;
const speech = () => speechOf<Speech>(svc);
const history = async () => (await get(svc, '/history?id=hall')).json.entries as Entry[];
const idle = () => speechIdle<Speech>(svc);

before(async () => {
  sink = wavFolder('mlds-shown-out-');
  out = sink.dir;
  const cfg = speechConfig();
  cfg.displays.hall.layout.spoken = {
    said: { coordinates: '0 0 127 31', type: 'text', fontSize: '10', markup: 'multi', fit: 'shrink', minFontSize: '4' },
  };
  cfg.displays.hall.showSpoken = { layout: 'spoken', area: 'said' };
  cfg.displays.hall.readout = { inputs: [] };
  sd = serviceDir(cfg);
  mkdirSync(path.join(sd.dir, 'logs'));
  svc = await start(sd, { logDir: path.join(sd.dir, 'logs') });
});

after(async () => {
  await svc?.close();
  sd?.cleanup();
  sink?.remove();
});

test(
  "an announcement's text is shown on the showSpoken area for as long as " +
    'it is spoken, as a level that ends with it',
  async () => {
    assert.equal((await get(svc, '/mlds?id=hall&layout=board&line=Platform%20two&quiet=x')).status, 200);
    await until(async () => (await speech()).counts.spoken === 1, 30_000, 'the area said');
    await idle();
    // The area's own value is on the sign already: not shown again.
    assert.deepEqual(
      (await history()).filter((e) => e.source === 'speech'),
      [],
    );
    const words = 'Gate [B] is closed';
    assert.equal((await get(svc, `/announce?id=hall&text=${encodeURIComponent(words)}`)).status, 200);
    await until(async () => (await history()).some((e) => e.source === 'speech'), 10_000, 'the spoken text shown');
    const st = (await get(svc, '/status')).json.displays as
      Record<string, { layout: string }> | Array<{ id: string; layout: string }>;
    const hall = Array.isArray(st) ? st.find((d) => d.id === 'hall') : st.hall;
    assert.equal(hall?.layout, 'spoken', JSON.stringify(hall));
    const s = await idle();
    assert.equal(s.counts.spoken, 2, 'the board under the spoken text is not said again when it shows again');
    await until(
      async () => (await history()).some((e) => e.source === 'speech' && e.end !== null),
      10_000,
      'the level ended',
    );
    const shown = (await history()).find((e) => e.source === 'speech')!;
    assert.deepEqual(
      [shown.layout, shown.area, shown.value, shown.priority],
      ['spoken', 'said', 'Gate [[B]] is closed', 9],
    );
    const seconds = readWav(path.join(out, 'hall.announce.2.wav')).info.seconds;
    const held = (Date.parse(shown.end!) - Date.parse(shown.start)) / 1000;
    assert.ok(held >= seconds * 0.9 && held <= seconds + 2, `shown ${held} s for ${seconds} s of speech`);
    // The board shows again: its level 0 entries start when the spoken text ends.
    assert.ok(
      (await history()).some((e) => e.layout === 'board' && e.start === shown.end && e.value === 'Platform two'),
    );
    const after = (await get(svc, '/status')).json.displays as
      Record<string, { layout: string }> | Array<{ id: string; layout: string }>;
    assert.equal((Array.isArray(after) ? after.find((d) => d.id === 'hall') : after.hall)?.layout, 'board');
    assert.ok(existsSync(path.join(out, 'hall.announce.2.wav')));
  },
);

test('a readout is shown as it is spoken too', async () => {
  assert.equal((await get(svc, '/readout?id=hall')).status, 200);
  await idle();
  const entries = (await history()).filter((e) => e.source === 'speech');
  assert.ok(
    entries.some((e) => e.value === 'Platform two. x.'),
    JSON.stringify(entries.map((e) => e.value)),
  );
});

test('showSpoken naming no layout, no area or an area that cannot show text is a fault naming it', async () => {
  const { parseConfig } = await import('../../src/config/load.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-shown-cfg-'));
  try {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ layout: 'nope', area: 'said' }, /showSpoken\/layout.*no layout "nope"/],
      [{ layout: 'board', area: 'nope' }, /showSpoken\/area.*no area "nope"/],
      [{ layout: 'pics', area: 'pic' }, /showSpoken\/area.*image area/],
    ];
    for (const [at, why] of cases) {
      const cfg = speechConfig();
      cfg.displays.hall.layout.pics = { pic: { coordinates: '0 0 127 31', type: 'image' } };
      cfg.displays.hall.showSpoken = at;
      assert.throws(() => parseConfig(JSON.stringify(cfg), dir), why);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
