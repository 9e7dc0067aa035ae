// The queue's order and bounds, quiet hours, a unit without speech and a failing espeak-ng,
// through real HTTP and real espeak-ng into the file sink.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { speechConfig, wavFolder } from './audio.js';

type Speech = {
  queue: Array<{ text: string; priority: boolean; source: string; display: string }>;
  speaking: { text: string } | null;
  counts: Record<string, number>;
  last: { text: string } | null;
};

let sink: ReturnType<typeof wavFolder>;
let out: string;
const running: Array<{ svc: RunningService; sd: ServiceDir }> = [];

before(() => {
  sink = wavFolder('mlds-speech-out-');
  out = sink.dir;
});

after(async () => {
  for (const r of running) {
    await r.svc.close();
    r.sd.cleanup();
  }
  sink?.remove();
});

async function service(config: Record<string, unknown>): Promise<RunningService> {
  const sd = serviceDir(config);
  const svc = await start(sd);
  running.push({ svc, sd });
  return svc;
}

async function speech(svc: RunningService): Promise<Speech> {
  return ((await get(svc, '/status')).json.components as Record<string, Speech>).speech;
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

test(
  'priority announcements go first, a full queue drops its oldest ordinary one, and a queue of priority ones ' +
    'answers 503',
  async () => {
    const svc = await service(speechConfig());
    const long = 'This announcement holds the speaker while the queue fills behind it.';
    assert.equal((await get(svc, `/announce?id=hall&text=${encodeURIComponent(long)}`)).status, 200);
    await until(async () => (await speech(svc)).speaking !== null, 30_000, 'the first announcement speaking');
    for (let i = 1; i <= 10; i++) {
      const r = await get(svc, `/announce?id=hall&text=ordinary ${i}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.position, i);
    }
    assert.equal((await get(svc, '/announce?id=hall&text=ordinary 11')).status, 200);
    const p1 = await get(svc, '/announce?id=hall&text=priority 1&priority=1');
    assert.equal(p1.status, 200, p1.text);
    assert.equal(p1.json.position, 1);
    let s = await speech(svc);
    assert.equal(s.speaking?.text, long);
    assert.deepEqual(
      s.queue.map((q) => q.text),
      ['priority 1', ...[3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => `ordinary ${i}`)],
    );
    assert.deepEqual(s.queue[0], { source: 'http', display: 'hall', priority: true, text: 'priority 1' });
    assert.equal(s.counts.dropped, 2);
    for (let i = 2; i <= 10; i++)
      assert.equal((await get(svc, `/announce?id=hall&text=priority ${i}&priority=1`)).json.position, i);
    s = await speech(svc);
    assert.deepEqual(
      s.queue.map((q) => q.text),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `priority ${i}`),
    );
    assert.equal(s.counts.dropped, 11);
    for (const q of ['text=late', 'text=late&priority=1']) {
      const r = await get(svc, `/announce?id=hall&${q}`);
      assert.equal(r.status, 503, r.text);
      assert.equal(r.json.error ?? r.json.code, 'MLDS_SPEECH_FULL');
      assert.ok(r.headers.get('retry-after'));
    }
    assert.equal((await speech(svc)).counts.refusedFull, 2);
    // Spoken one at a time, numbered from 1: the first, then the ten priority ones.
    let seen = '';
    await until(
      async () => {
        const c = (await speech(svc)).counts;
        seen = JSON.stringify(c);
        return c.spoken === 11;
      },
      180_000,
      () => `11 spoken, seen ${seen}`,
    );
    s = await speech(svc);
    assert.equal(s.last?.text, 'priority 10');
    assert.equal(s.queue.length, 0);
    for (let n = 1; n <= 11; n++) assert.ok(existsSync(path.join(out, `hall.announce.${n}.wav`)), `announcement ${n}`);
    assert.ok(!existsSync(path.join(out, 'hall.announce.12.wav')));
  },
);

test('during quiet hours only priority announcements are spoken; the others are refused and counted', async () => {
  const now = Date.now();
  const cfg = speechConfig({ quietHours: `${hhmm(now - 3_600_000)}-${hhmm(now + 3_600_000)}` });
  cfg.displays = { lobby: cfg.displays.hall };
  const svc = await service(cfg);
  const r = await get(svc, '/announce?id=lobby&text=ordinary words');
  assert.equal(r.status, 409, r.text);
  assert.equal(r.json.error ?? r.json.code, 'MLDS_SPEECH_QUIET');
  const p = await get(svc, '/announce?id=lobby&text=priority words&priority=1');
  assert.equal(p.status, 200, p.text);
  await until(() => existsSync(path.join(out, 'lobby.announce.1.wav')), 30_000, 'the priority announcement');
  const s = await speech(svc);
  assert.equal(s.counts.refusedQuiet, 1);
  assert.equal(s.counts.spoken, 1);
  assert.equal(readdirSync(out).filter((f) => f.startsWith('lobby.')).length, 1);
});

test('a unit without speech answers /announce with 409 MLDS_SPEECH_OFF', async () => {
  const svc = await service(baseConfig());
  const r = await get(svc, '/announce?id=main&text=hello');
  assert.equal(r.status, 409, r.text);
  assert.equal(r.json.error ?? r.json.code, 'MLDS_SPEECH_OFF');
  assert.equal(
    (await get(svc, '/status')).json.components &&
      ((await get(svc, '/status')).json.components as Record<string, unknown>).speech,
    undefined,
  );
});

test('espeak-ng failing (a voice it lacks) shows as a speech problem on /status, and nothing is written', async () => {
  const cfg = speechConfig({ voice: 'zz-novoice' });
  cfg.displays = { kiosk: cfg.displays.hall };
  const svc = await service(cfg);
  assert.equal(await get(svc, '/announce?id=kiosk&text=hello').then((r) => r.status), 200);
  await until(
    async () =>
      ((await get(svc, '/status')).json.problems as Array<{ source: string }>).some((p) => p.source === 'speech'),
    30_000,
    'a speech problem',
  );
  const problem = ((await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>).find(
    (p) => p.source === 'speech',
  )!;
  assert.match(problem.message, /espeak-ng.*voice/i);
  assert.equal((await speech(svc)).counts.failed, 1);
  assert.ok(!readdirSync(out).some((f) => f.startsWith('kiosk.')));
});
