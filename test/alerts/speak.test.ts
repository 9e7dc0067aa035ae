// An alert with speak: true is read aloud by the real speech component (espeak-ng into the file
// sink): its instruction, else its headline, once, as a priority announcement from cap.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { espeakAlone, readWav } from '../speech/audio.js';
import { atomFeed, capAlert, capServer, type CapServer } from './cap.js';
import { alertsConfig, isRed } from './setup.js';

type Said = { source: string; display: string; priority: boolean; text: string };
type Counts = { spoken: number; dropped: number; refusedFull: number; failed: number };
type Speech = { counts: Counts; last?: Said; speaking?: Said; queue: Said[] };
const speechOf = async (svc: RunningService): Promise<Speech> =>
  ((await get(svc, '/status')).json.components as Record<string, Speech>).speech;

type Run = (svc: RunningService, cap: CapServer, files: () => string[], sd: ServiceDir, out: string) => Promise<void>;

async function withSpeech(speak: boolean, run: Run, voice = 'en'): Promise<void> {
  const cap = await capServer();
  const out = mkdtempSync(path.join(tmpdir(), 'mlds-cap-speech-'));
  const before = process.env.MLDS_AUDIO_SINK;
  process.env.MLDS_AUDIO_SINK = `file:${out}`;
  const cfg = alertsConfig(cap.url('/feed.atom'), speak ? { speak: 'true' } : {}) as Record<string, unknown>;
  cfg.speech = { voice };
  const sd = serviceDir(cfg);
  const svc = await start(sd);
  try {
    await run(svc, cap, () => readdirSync(out).filter((f) => /^main\.announce\.\d+\.wav$/.test(f)), sd, out);
  } finally {
    await svc.close();
    await cap.close();
    sd.cleanup();
    rmSync(out, { recursive: true, force: true });
    if (before === undefined) delete process.env.MLDS_AUDIO_SINK;
    else process.env.MLDS_AUDIO_SINK = before;
  }
}

test(
  "with speak: true a new alert's instruction (else its headline) is spoken once, as a priority announcement " +
    'from cap',
  async () => {
    await withSpeech(true, async (svc, cap, files) => {
      cap.routes.set(
        '/feed.atom',
        atomFeed([capAlert({ identifier: 'SAY-1', infos: [{ instruction: 'Move to higher ground now.' }] })]),
      );
      await until(() => isRed(svc), 20_000, 'the alert on the panel');
      await until(async () => (await speechOf(svc)).counts.spoken === 1, 30_000, 'the announcement');
      const first = (await speechOf(svc)).last!;
      assert.deepEqual(
        { source: first.source, display: first.display, priority: first.priority, text: first.text },
        { source: 'cap', display: 'main', priority: true, text: 'Move to higher ground now.' },
      );
      cap.routes.set(
        '/feed.atom',
        atomFeed([
          capAlert({ identifier: 'SAY-1', infos: [{ instruction: 'Move to higher ground now.' }] }),
          capAlert({ identifier: 'SAY-2', sent: '2026-11-28T11:00:00Z', infos: [{ headline: 'Bridge closed' }] }),
        ]),
      );
      await until(async () => (await speechOf(svc)).counts.spoken === 2, 30_000, 'the second announcement');
      assert.equal((await speechOf(svc)).last!.text, 'Bridge closed', 'the headline when there is no instruction');
      const polls = cap.hits.get('/feed.atom')!;
      await until(() => cap.hits.get('/feed.atom')! >= polls + 3, 20_000, 'three more polls');
      const s = await speechOf(svc);
      assert.equal(s.counts.spoken, 2, 'an alert is spoken once, not at every poll');
      assert.equal(s.queue.length, 0);
      assert.deepEqual(files().sort(), ['main.announce.1.wav', 'main.announce.2.wav']);
    });
  },
);

test('without speak an alert is shown and nothing is spoken', async () => {
  await withSpeech(false, async (svc, cap, files) => {
    cap.routes.set(
      '/feed.atom',
      atomFeed([capAlert({ identifier: 'QUIET-1', infos: [{ instruction: 'Stay inside.' }] })]),
    );
    await until(() => isRed(svc), 20_000, 'the alert on the panel');
    const polls = cap.hits.get('/feed.atom')!;
    await until(() => cap.hits.get('/feed.atom')! >= polls + 2, 20_000, 'two more polls');
    assert.equal((await speechOf(svc)).counts.spoken, 0);
    assert.deepEqual(files(), []);
  });
});

const spokenMarks = (sd: ServiceDir): string[] => {
  const file = path.join(sd.stateDir, 'alerts.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { spoken: string[] }).spoken : [];
};

test(
  "with ten priority announcements queued an alert's warning goes first and is said; " +
    'alerts.json records it as spoken only once it was',
  { timeout: 120_000 },
  async () => {
    await withSpeech(true, async (svc, cap, files, sd, out) => {
      const notice = (i: number) => `Notice ${i}: platform two is closed for cleaning, please use platform three.`;
      // One spoken at once, then ten waiting: the queue is full of priority announcements.
      for (let i = 1; i <= 11; i++) {
        const r = await get(svc, `/announce?id=main&priority=1&text=${encodeURIComponent(notice(i))}`);
        assert.equal(r.status, 200, r.text);
      }
      const waiting = async () => {
        const s = await speechOf(svc);
        return s.speaking !== null && s.queue.length === 10;
      };
      await until(waiting, 20_000, 'one spoken, ten waiting');
      const twelfth = await get(svc, `/announce?id=main&priority=1&text=${encodeURIComponent(notice(12))}`);
      assert.equal(twelfth.status, 503, 'a full queue refuses another priority announcement');

      const warning = 'Leave the station now.';
      const evacuate = capAlert({ identifier: 'EVAC-1', infos: [{ severity: 'Extreme', instruction: warning }] });
      cap.routes.set('/feed.atom', atomFeed([evacuate]));
      await until(() => isRed(svc), 20_000, 'the alert on the panel');
      await until(
        async () => (await speechOf(svc)).queue.some((w) => w.source === 'cap'),
        20_000,
        'the warning queued',
      );
      const s = await speechOf(svc);
      const order = s.queue.map((w) => w.source);
      assert.deepEqual(order, ['cap', ...Array(9).fill('http')], 'first, where the oldest priority announcement was');
      assert.equal(s.counts.dropped, 1);
      assert.deepEqual(spokenMarks(sd), [], 'not recorded as spoken while it waits');

      await until(async () => (await speechOf(svc)).last?.source === 'cap', 60_000, 'the warning said');
      const last = (await speechOf(svc)).last!;
      assert.deepEqual([last.text, last.priority], [warning, true]);
      // The second file written: right after the announcement that was being said.
      const wav = readWav(path.join(out, 'main.announce.2.wav')).info.seconds;
      const alone = espeakAlone(warning);
      assert.ok(Math.abs(wav - alone) <= alone * 0.1, `${wav} s written, espeak-ng alone ${alone} s`);
      assert.ok(files().includes('main.announce.2.wav'));
      await until(() => spokenMarks(sd).length === 1, 10_000, 'alerts.json to record the warning as spoken');
      assert.match(spokenMarks(sd)[0], /^main\|.*,EVAC-1,/);
    });
  },
);

test(
  'a warning the voice cannot say is not recorded as spoken: it is handed to speech again at the next fetch',
  { timeout: 120_000 },
  async () => {
    await withSpeech(
      true,
      async (svc, cap, files, sd) => {
        const mute = capAlert({ identifier: 'MUTE-1', infos: [{ instruction: 'Stay inside.' }] });
        cap.routes.set('/feed.atom', atomFeed([mute]));
        await until(() => isRed(svc), 20_000, 'the alert on the panel');
        await until(async () => (await speechOf(svc)).counts.failed >= 2, 30_000, 'two attempts, each failed');
        assert.equal((await speechOf(svc)).counts.spoken, 0);
        assert.deepEqual(files(), []);
        assert.ok(existsSync(path.join(sd.stateDir, 'alerts.json')));
        assert.deepEqual(spokenMarks(sd), [], 'never recorded as spoken');
      },
      'zzqq',
    );
  },
);
