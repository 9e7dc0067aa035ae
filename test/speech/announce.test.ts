// GET /announce through real HTTP, real espeak-ng and ffmpeg into the file sink: the WAV of a
// known sentence is 16 kHz mono, as long as espeak-ng makes it alone, and holds speech.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { SPEECH } from '../../src/capability/speaker.js';
import { fitted } from '../../src/speech/words.js';
import { espeakAlone, readWav, rms, speechConfig, wavFolder } from './audio.js';

const SENTENCE = 'The next train to Central Station departs from platform two in five minutes.';
let sd: ServiceDir;
let svc: RunningService;
let sink: ReturnType<typeof wavFolder>;
let out: string;

before(async () => {
  sink = wavFolder('mlds-speech-out-');
  out = sink.dir;
  sd = serviceDir(speechConfig());
  svc = await start(sd);
});

after(async () => {
  await svc?.close();
  sd?.cleanup();
  sink?.remove();
});

test(
  'an announcement is written as a 16 kHz mono WAV as long ' +
    'as espeak-ng makes the sentence alone, with speech in it',
  async () => {
    const sent = performance.now();
    const r = await get(svc, `/announce?id=hall&text=${encodeURIComponent(SENTENCE)}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.result, 'queued');
    const file = path.join(out, 'hall.announce.1.wav');
    await until(() => existsSync(file), 30_000, file);
    const latency = performance.now() - sent;
    const { info, samples } = readWav(file);
    assert.equal(info.sampleRate, 16_000);
    assert.equal(info.channels, 1);
    assert.equal(info.bitsPerSample, 16);
    const alone = espeakAlone(SENTENCE);
    assert.ok(Math.abs(info.seconds - alone) <= alone * 0.1, `${info.seconds} s written, espeak-ng alone ${alone} s`);
    const loud = rms(samples);
    assert.ok(loud > 0.02, `RMS ${loud}`);
    const st = await get(svc, '/status');

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const speech = (st.json.components as Record<string, any>).speech;
    assert.equal(speech.counts.spoken, 1);
    assert.equal(speech.last.display, 'hall');
    assert.equal(speech.last.source, 'http');
    assert.ok(
      Math.abs(speech.last.seconds - info.seconds) < 0.05,
      `status ${speech.last.seconds} s, file ${info.seconds} s`,
    );
    console.log(
      `speech: ${SENTENCE.length} characters, ${info.seconds.toFixed(2)} s of sound (espeak-ng alone ` +
        `${alone.toFixed(2)} s), RMS ${loud.toFixed(3)}; /announce to the complete file ${latency.toFixed(0)} ` +
        `ms, to the first sound (status) ${speech.last.latencyMs} ms`,
    );
  },
);

test(
  '/announce refuses an empty, over-long or badly ' + 'prioritised text and an unknown display, naming the field',
  async () => {
    const cases: Array<[string, number, string, string]> = [
      ['/announce?id=hall&text=', 400, 'MLDS_BAD_ANNOUNCEMENT', 'text'],
      ['/announce?id=hall', 400, 'MLDS_BAD_ANNOUNCEMENT', 'text'],
      ['/announce?id=hall&text=%20%20', 400, 'MLDS_BAD_ANNOUNCEMENT', 'text'],
      [`/announce?id=hall&text=${'a'.repeat(501)}`, 400, 'MLDS_BAD_ANNOUNCEMENT', 'text'],
      ['/announce?id=hall&text=hi&priority=2', 400, 'MLDS_BAD_ANNOUNCEMENT', 'priority'],
      ['/announce?id=nope&text=hi', 400, 'MLDS_UNKNOWN_ID', 'id'],
      ['/announce?text=hi', 400, 'MLDS_MISSING_ID', 'id'],
      ['/announce?id=hall&text=a&text=b', 400, 'MLDS_BAD_PARAMETER', 'text'],
    ];
    for (const [q, status, code, field] of cases) {
      const r = await get(svc, q);
      assert.equal(r.status, status, `${q}: ${r.text}`);
      assert.equal(r.json.error ?? r.json.code, code, `${q}: ${r.text}`);
      assert.equal(r.json.field, field, `${q}: ${r.text}`);
    }
    const st = await get(svc, '/status');

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    assert.equal((st.json.components as Record<string, any>).speech.counts.spoken, 1);
  },
);

test('HEAD /announce checks and says nothing', async () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const before = ((await get(svc, '/status')).json.components as Record<string, any>).speech;
  const r = await fetch(`${svc.url}/announce?id=hall&text=hello`, { method: 'HEAD' });
  assert.equal(r.status, 200);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const now = ((await get(svc, '/status')).json.components as Record<string, any>).speech;
  assert.equal(
    now.queue.length + (now.speaking ? 1 : 0) + now.counts.spoken,
    before.queue.length + (before.speaking ? 1 : 0) + before.counts.spoken,
  );
});

test(
  "an alert's instruction longer than one announcement is " +
    'read as far as it fits; /announce is told it is too long',
  async () => {
    const long = 'Move to higher ground now and stay away from the river banks. '.repeat(12).trim();
    assert.equal((await get(svc, `/announce?id=hall&text=${encodeURIComponent(long)}`)).status, 400);
    const speaker = svc.runtime.component(SPEECH)!;
    const r = speaker.announce({ displayId: 'hall', text: long, priority: true, source: 'cap' });
    assert.equal(r.queued, true);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const st = ((await get(svc, '/status')).json.components as Record<string, any>).speech;
    const said = [st.speaking, ...st.queue].find((x) => x?.source === 'cap');
    assert.deepEqual([said?.priority, said?.text.startsWith('Move to higher ground')], [true, true]);
    await until(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      async () => ((await get(svc, '/status')).json.components as Record<string, any>).speech.last?.source === 'cap',
      60_000,
      'the alert spoken',
    );
    const cut = fitted(long);
    assert.ok(cut.length <= 500 && cut.endsWith('.'));
    const { info } = readWav(path.join(out, 'hall.announce.2.wav'));
    const alone = espeakAlone(cut);
    assert.ok(
      Math.abs(info.seconds - alone) <= alone * 0.1,
      `${info.seconds} s written, espeak-ng alone on the cut text ${alone} s`,
    );
  },
);
