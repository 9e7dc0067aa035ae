// The children that speak end with the service and with a reload: with MLDS_AUDIO_SINK=null
// an announcement plays in real time through ffmpeg, which a stop or a reload must kill.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { liveChildren } from '../../src/media/children.js';
import { speechConfig } from './audio.js';

const LONG =
  'This announcement plays in real time for several seconds, long enough to be cut short by a reload or by the ' +
  'end of the service.';
const sds: ServiceDir[] = [];

before(() => {
  process.env.MLDS_AUDIO_SINK = 'null';
});
after(() => {
  for (const sd of sds) sd.cleanup();
  delete process.env.MLDS_AUDIO_SINK;
});

type Speech = { speaking: { text: string } | null; counts: Record<string, number>; last: { sink: string } | null };
const speech = async (svc: RunningService) =>
  ((await get(svc, '/status')).json.components as Record<string, Speech>).speech;

async function speaking(): Promise<{ svc: RunningService; sd: ServiceDir }> {
  const sd = serviceDir(speechConfig());
  sds.push(sd);
  const svc = await start(sd);
  assert.equal(liveChildren(), 0);
  assert.equal((await get(svc, `/announce?id=hall&text=${encodeURIComponent(LONG)}`)).status, 200);
  // espeak-ng, then ffmpeg playing: a child runs while the announcement is spoken.
  await until(
    async () => (await speech(svc)).speaking !== null && liveChildren() === 1,
    30_000,
    'an announcement playing',
  );
  return { svc, sd };
}

test('a reload kills the child speaking; the service speaks again afterwards', async () => {
  const { svc, sd } = await speaking();
  const cfg = speechConfig({ rate: '200' });
  writeFileSync(sd.configFile, JSON.stringify(cfg));
  const r = await get(svc, '/reload_config');
  assert.equal(r.status, 200, r.text);
  await until(
    async () => liveChildren() === 0 && (await speech(svc)).speaking === null,
    10_000,
    'the child ended by the reload',
  );
  assert.equal((await speech(svc)).counts.spoken, 0);
  assert.equal((await speech(svc)).counts.failed, 0);
  assert.equal((await get(svc, '/announce?id=hall&text=again')).status, 200);
  await until(async () => (await speech(svc)).counts.spoken === 1, 30_000, 'spoken after the reload');
  assert.equal((await speech(svc)).last?.sink, 'null');
  await svc.close();
});

test('stopping the service kills the child speaking', async () => {
  const { svc } = await speaking();
  await svc.close();
  assert.equal(liveChildren(), 0);
});

test('a value a restart replays is not said again; a new one after the restart is', async () => {
  process.env.MLDS_AUDIO_SINK = 'null';
  const sd = serviceDir(speechConfig());
  sds.push(sd);
  let svc = await start(sd);
  assert.equal((await get(svc, '/mlds?id=hall&layout=board&line=Gate%20four')).status, 200);
  await until(async () => (await speech(svc)).counts.spoken === 1, 30_000, 'the value said once');
  await svc.close();
  svc = await start(sd);
  await until(
    () => svc.controller().state('hall').areas.get('line')?.text === 'Gate four',
    10_000,
    'the replayed value',
  );
  let s = await speech(svc);
  assert.deepEqual([s.speaking, s.counts.spoken, (s as unknown as { queue: unknown[] }).queue.length], [null, 0, 0]);
  assert.equal((await get(svc, '/mlds?id=hall&layout=board&line=Gate%20five')).status, 200);
  await until(async () => (await speech(svc)).counts.spoken === 1, 30_000, 'the new value said');
  s = await speech(svc);
  assert.equal((s.last as unknown as { text: string }).text, 'Gate five');
  await svc.close();
});
