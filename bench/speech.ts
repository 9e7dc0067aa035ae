// Speech latency: from GET /announce to the announcement's WAV complete in the file sink
// (MLDS_AUDIO_SINK=file:), one at a time, against what espeak-ng, sox (which the service
// resamples with) and ffmpeg take alone on the same words. `benchSpeech()` returns markdown lines; run alone with `node
// --import tsx bench/speech.ts`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { get, serviceDir, start, until } from '../test/helpers/service.js';
import { speechConfig } from '../test/speech/audio.js';
import { FFMPEG_QUIET } from '../src/media/children.js';

const ROUNDS = Number(process.env.MLDS_BENCH_SPEECH_ROUNDS ?? 20);
const TEXT = 'The next train to Central Station departs from platform two.';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};

function alone(dir: string): { espeak: number; sox: number; ffmpeg: number } {
  const words = path.join(dir, 'w.wav');
  let t = performance.now();
  execFileSync('espeak-ng', ['-v', 'en', '-s', '160', '-a', '160', '-w', words, TEXT]);
  const espeak = performance.now() - t;
  t = performance.now();
  execFileSync('sox', [
    '-V1',
    '-G',
    words,
    '-r',
    '16000',
    '-c',
    '1',
    '-b',
    '16',
    '-e',
    'signed-integer',
    '-t',
    'wav',
    path.join(dir, 's.wav'),
  ]);
  const sox = performance.now() - t;
  t = performance.now();
  execFileSync('ffmpeg', [
    ...FFMPEG_QUIET,
    '-i',
    words,
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    '-f',
    'wav',
    '-y',
    path.join(dir, 'o.wav'),
  ]);
  return { espeak, sox, ffmpeg: performance.now() - t };
}

export async function benchSpeech(): Promise<string> {
  const out = mkdtempSync(path.join(tmpdir(), 'mlds-bench-speech-'));
  const before = process.env.MLDS_AUDIO_SINK;
  process.env.MLDS_AUDIO_SINK = `file:${out}`;
  const sd = serviceDir(speechConfig());
  const svc = await start(sd);
  const load0 = loadavg()[0];
  const toFile: number[] = [],
    toSound: number[] = [],
    espeak: number[] = [],
    sox: number[] = [],
    ffmpeg: number[] = [];
  try {
    for (let n = 1; n <= ROUNDS; n++) {
      const t = performance.now();
      const r = await get(svc, `/announce?id=hall&text=${encodeURIComponent(TEXT)}`);
      if (r.status !== 200) throw new Error(r.text);
      const file = path.join(out, `hall.announce.${n}.wav`);
      await until(() => existsSync(file), 30_000, file, 2);
      toFile.push(performance.now() - t);
      // The next one starts once this one has been heard (the sink holds it for its length).
      await until(
        async () =>
          ((await get(svc, '/status')).json.components as Record<string, { speaking: unknown }>).speech.speaking ===
          null,
        30_000,
        'idle',
        20,
      );
      toSound.push(
        ((await get(svc, '/status')).json.components as Record<string, { last: { latencyMs: number } }>).speech.last
          .latencyMs,
      );
      const a = alone(out);
      espeak.push(a.espeak);
      sox.push(a.sox);
      ffmpeg.push(a.ffmpeg);
    }
  } finally {
    await svc.close();
    sd.cleanup();
    rmSync(out, { recursive: true, force: true });
    if (before === undefined) delete process.env.MLDS_AUDIO_SINK;
    else process.env.MLDS_AUDIO_SINK = before;
  }
  const f = (x: number) => x.toFixed(0);
  return [
    `"${TEXT}" (${TEXT.length} characters), voice en, 160 words a minute, no chime; ${ROUNDS} announcements one ` +
      `at a time; load average ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end (2 cores, ` +
      `shared).`,
    '',
    '| measure | p50 | p90 |',
    '|---|---|---|',
    `| /announce to the complete WAV (file sink) | **${f(pct(toFile, 0.5))} ms** | ${f(pct(toFile, 0.9))} ms |`,
    `| arrival to the first sound (\`last.latencyMs\`) | ${f(pct(toSound, 0.5))} ms | ${f(pct(toSound, 0.9))} ms |`,
    `| espeak-ng alone (the words as a WAV) | ${f(pct(espeak, 0.5))} ms | ${f(pct(espeak, 0.9))} ms |`,
    `| sox alone (resampling it to 16 kHz, as the service does) | ${f(pct(sox, 0.5))} ms | ${f(pct(sox, 0.9))} ms |`,
    `| ffmpeg alone (the same resampling) | ${f(pct(ffmpeg, 0.5))} ms | ${f(pct(ffmpeg, 0.9))} ms |`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchSpeech());
}
