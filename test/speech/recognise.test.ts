// What the service writes is words a listener can make out: Debian's pocketsphinx (US English
// model) recognises a short announcement spoken through /announce, and a chime plays before
// the words. pocketsphinx's general language model cannot follow espeak-ng's synthetic voice
// (it hears "platform two" as "or look good"), so it is given what a station's recogniser
// would be: a grammar of sign phrases, eight places by ten numbers.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { espeakAlone, readWav, rms, speechConfig, wavFolder } from './audio.js';

const MODEL = '/usr/share/pocketsphinx/model/en-us';
const skip = !existsSync(path.join(MODEL, 'en-us')) ? 'pocketsphinx-en-us is not installed (make test-deps)' : false;
const GRAMMAR = `#JSGF V1.0;
grammar station;
public <announcement> = <place> <number>;
<place> = platform | track | gate | stop | bay | line | exit | door;
<number> = one | two | three | four | five | six | seven | eight | nine | ten;
`;

let sink: ReturnType<typeof wavFolder>;
let out: string, work: string;
const running: Array<{ svc: RunningService; sd: ServiceDir }> = [];

before(() => {
  sink = wavFolder('mlds-speech-out-');
  out = sink.dir;
  work = mkdtempSync(path.join(tmpdir(), 'mlds-speech-asr-'));
});

after(async () => {
  for (const r of running) {
    await r.svc.close();
    r.sd.cleanup();
  }
  sink?.remove();
  rmSync(work, { recursive: true, force: true });
});

async function announce(
  id: string,
  speech: Record<string, unknown>,
  text: string,
  sounds?: (dir: string) => void,
): Promise<string> {
  const cfg = speechConfig(speech);
  cfg.displays = { [id]: cfg.displays.hall };
  const sd = serviceDir(cfg);
  if (sounds) {
    mkdirSync(path.join(sd.dir, 'sounds'));
    sounds(path.join(sd.dir, 'sounds'));
  }
  const svc = await start(sd);
  running.push({ svc, sd });
  const r = await get(svc, `/announce?id=${id}&text=${encodeURIComponent(text)}`);
  assert.equal(r.status, 200, r.text);
  const file = path.join(out, `${id}.announce.1.wav`);
  await until(() => existsSync(file), 30_000, file);
  return file;
}

test('pocketsphinx recognises "platform two" in the announcement the service wrote', { skip }, async () => {
  const file = await announce('asr', { voice: 'en-us+f2', rate: '150', volume: '50' }, 'Platform two');
  const grammar = path.join(work, 'station.gram');
  writeFileSync(grammar, GRAMMAR);
  const heard = execFileSync(
    'pocketsphinx_continuous',
    [
      '-infile',
      file,
      '-hmm',
      path.join(MODEL, 'en-us'),
      '-jsgf',
      grammar,
      '-dict',
      path.join(MODEL, 'cmudict-en-us.dict'),
      '-logfn',
      '/dev/null',
    ],
    { encoding: 'utf8', timeout: 120_000 },
  ).trim();
  console.log(`pocketsphinx heard: "${heard}"`);
  assert.match(heard, /\bplatform\b/);
  assert.match(heard, /\btwo\b/);
});

test(
  'the chime from sounds/ plays before the words: its tone first, then speech as long as espeak-ng makes it alone',
  { skip },
  async () => {
    const file = await announce('chimed', { chime: 'gong.wav' }, 'Mind the gap', (dir) => {
      // Half a second of 880 Hz (ffmpeg's sine is at 1/8 of full scale), 44.1 kHz stereo: the service makes it 16 kHz
      // mono.
      execFileSync('ffmpeg', [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=880:sample_rate=44100:duration=0.5',
        '-ac',
        '2',
        '-y',
        path.join(dir, 'gong.wav'),
      ]);
    });
    const { info, samples } = readWav(file);
    assert.equal(info.sampleRate, 16_000);
    assert.equal(info.channels, 1);
    const alone = espeakAlone('Mind the gap');
    assert.ok(
      Math.abs(info.seconds - (0.5 + alone)) <= alone * 0.1,
      `${info.seconds} s: 0.5 s of chime and ${alone} s of words expected`,
    );
    // The tone's first 0.45 s is loud and at its pitch (zero crossings), the words after it.
    const tone = samples.subarray(800, 7200);
    assert.ok(rms(tone) > 0.02, `chime RMS ${rms(tone)}`);
    let crossings = 0;
    for (let i = 1; i < tone.length; i++) if (tone[i - 1] < 0 !== tone[i] < 0) crossings++;
    const hz = crossings / 2 / (tone.length / 16_000);
    assert.ok(Math.abs(hz - 880) < 20, `chime at ${hz} Hz`);
    assert.ok(rms(samples, 8000) > 0.02, 'speech after the chime');
  },
);
