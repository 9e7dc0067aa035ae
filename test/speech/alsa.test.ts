// The real device path (no MLDS_AUDIO_SINK): sox plays to the ALSA device of `audioDevice`.
// alsa-lib's `null` PCM takes the sound without a card; a device that does not exist is a
// speech problem on /status, until a reload names one that works.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { speechConfig } from './audio.js';

type Speech = { counts: Record<string, number>; last: { sink: string; seconds: number } | null };
let sd: ServiceDir, svc: RunningService;
const sink = process.env.MLDS_AUDIO_SINK;
const speech = async () => ((await get(svc, '/status')).json.components as Record<string, Speech>).speech;
const problems = async () => (await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>;

before(async () => {
  delete process.env.MLDS_AUDIO_SINK;
  sd = serviceDir({ ...speechConfig(), audioDevice: 'nosuchdevice' });
  svc = await start(sd);
});

after(async () => {
  await svc?.close();
  sd?.cleanup();
  if (sink !== undefined) process.env.MLDS_AUDIO_SINK = sink;
});

test(
  'a sound card that cannot be opened is a speech problem on /status; a reload to a device that works clears ' +
    'it and speaks',
  async () => {
    assert.equal((await get(svc, '/announce?id=hall&text=Platform%20two')).status, 200);
    await until(async () => (await problems()).some((p) => p.source === 'speech'), 30_000, 'a speech problem');
    const p = (await problems()).find((x) => x.source === 'speech')!;
    assert.match(p.message, /sox.*nosuchdevice/);
    assert.equal((await speech()).counts.failed, 1);
    writeFileSync(sd.configFile, JSON.stringify({ ...speechConfig(), audioDevice: 'null' }));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    assert.ok(!(await problems()).some((x) => x.source === 'speech'));
    assert.equal((await get(svc, '/announce?id=hall&text=Platform%20two')).status, 200);
    await until(async () => (await speech()).counts.spoken === 1, 30_000, 'spoken on the null device');
    const s = await speech();
    assert.equal(s.last?.sink, 'alsa null');
    assert.equal(s.counts.failed, 1);
  },
);
