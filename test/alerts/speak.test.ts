// An alert with speak: true is read aloud by the real speech component (espeak-ng into the file
// sink): its instruction, else its headline, once, as a priority announcement from cap.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { get, serviceDir, start, until } from '../helpers/service.js';
import { atomFeed, capAlert, capServer } from './cap.js';
import { alertsConfig, isRed } from './setup.js';

type Said = { source: string; display: string; priority: boolean; text: string };
const speechOf = async (svc: RunningService) => ((await get(svc, '/status')).json.components as Record<string, { counts: { spoken: number }; last?: Said; speaking?: unknown; queue: unknown[] }>).speech;

async function withSpeech(speak: boolean, run: (svc: RunningService, cap: Awaited<ReturnType<typeof capServer>>, files: () => string[]) => Promise<void>): Promise<void> {
  const cap = await capServer();
  const out = mkdtempSync(path.join(tmpdir(), 'mlds-cap-speech-'));
  const before = process.env.MLDS_AUDIO_SINK;
  process.env.MLDS_AUDIO_SINK = `file:${out}`;
  const cfg = alertsConfig(cap.url('/feed.atom'), speak ? { speak: 'true' } : {}) as Record<string, unknown>;
  cfg.speech = { voice: 'en' };
  const sd = serviceDir(cfg);
  const svc = await start(sd);
  try {
    await run(svc, cap, () => readdirSync(out).filter((f) => /^main\.announce\.\d+\.wav$/.test(f)));
  } finally {
    await svc.close();
    await cap.close();
    sd.cleanup();
    rmSync(out, { recursive: true, force: true });
    if (before === undefined) delete process.env.MLDS_AUDIO_SINK;
    else process.env.MLDS_AUDIO_SINK = before;
  }
}

test('with speak: true a new alert\'s instruction (else its headline) is spoken once, as a priority announcement from cap', async () => {
  await withSpeech(true, async (svc, cap, files) => {
    cap.routes.set('/feed.atom', atomFeed([capAlert({ identifier: 'SAY-1', infos: [{ instruction: 'Move to higher ground now.' }] })]));
    await until(() => isRed(svc), 20_000, 'the alert on the panel');
    await until(async () => (await speechOf(svc)).counts.spoken === 1, 30_000, 'the announcement');
    const first = (await speechOf(svc)).last!;
    assert.deepEqual({ source: first.source, display: first.display, priority: first.priority, text: first.text }, { source: 'cap', display: 'main', priority: true, text: 'Move to higher ground now.' });
    cap.routes.set('/feed.atom', atomFeed([
      capAlert({ identifier: 'SAY-1', infos: [{ instruction: 'Move to higher ground now.' }] }),
      capAlert({ identifier: 'SAY-2', sent: '2026-11-28T11:00:00Z', infos: [{ headline: 'Bridge closed' }] }),
    ]));
    await until(async () => (await speechOf(svc)).counts.spoken === 2, 30_000, 'the second announcement');
    assert.equal((await speechOf(svc)).last!.text, 'Bridge closed', 'the headline when there is no instruction');
    const polls = cap.hits.get('/feed.atom')!;
    await until(() => cap.hits.get('/feed.atom')! >= polls + 3, 20_000, 'three more polls');
    const s = await speechOf(svc);
    assert.equal(s.counts.spoken, 2, 'an alert is spoken once, not at every poll');
    assert.equal(s.queue.length, 0);
    assert.deepEqual(files().sort(), ['main.announce.1.wav', 'main.announce.2.wav']);
  });
});

test('without speak an alert is shown and nothing is spoken', async () => {
  await withSpeech(false, async (svc, cap, files) => {
    cap.routes.set('/feed.atom', atomFeed([capAlert({ identifier: 'QUIET-1', infos: [{ instruction: 'Stay inside.' }] })]));
    await until(() => isRed(svc), 20_000, 'the alert on the panel');
    const polls = cap.hits.get('/feed.atom')!;
    await until(() => cap.hits.get('/feed.atom')! >= polls + 2, 20_000, 'two more polls');
    assert.equal((await speechOf(svc)).counts.spoken, 0);
    assert.deepEqual(files(), []);
  });
});
