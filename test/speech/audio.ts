// What the speech tests measure of a WAV file: its header, its samples and their loudness,
// and what Debian's espeak-ng makes of the same words on its own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseWavHeader, type WavInfo } from '../../src/speech/wav.js';
import type { RunningService } from '../../src/main.js';
import { get, until } from '../helpers/service.js';

export function readWav(file: string): { info: WavInfo; samples: Int16Array } {
  const b = readFileSync(file);
  const info = parseWavHeader(b);
  if (!info) throw new Error(`${file} is not a WAV file`);
  const data = b.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
  const samples = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length));
  return { info, samples };
}

/** Root mean square of the samples, full scale 1. */
export function rms(samples: Int16Array, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i] / 32768) ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
}

/** Seconds espeak-ng alone gives `text` with these settings (its own WAV's length). */
export function espeakAlone(text: string, voice = 'en', rate = 160, amplitude = 160): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'espeak-alone-'));
  try {
    const file = path.join(dir, 'alone.wav');
    execFileSync('espeak-ng', ['-v', voice, '-s', String(rate), '-a', String(amplitude), '-w', file, text]);
    return readWav(file).info.seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A configuration with one display and speech on, for the speech tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function speechConfig(speech: Record<string, unknown> = {}): Record<string, any> {
  return {
    port: '9199',
    effectDurationMs: '0',
    rateLimit: '100000',
    timezone: 'UTC',
    speech: { voice: 'en', rate: '160', volume: '80', chime: 'none', ...speech },
    displays: {
      hall: {
        displayWidth: '128',
        displayHeight: '32',
        output: { driver: 'virtual' },
        layout: {
          board: {
            line: {
              coordinates: '0 0 127 15',
              type: 'text',
              fontSize: '12',
              speak: true,
              markup: 'multi',
              fit: 'shrink',
              minFontSize: '6',
            },
            quiet: { coordinates: '0 16 127 31', type: 'text', fontSize: '12' },
          },
        },
      },
    },
  };
}

/** A folder the WAV sink of this test file's services writes into (MLDS_AUDIO_SINK=file:<dir>). */
export function wavFolder(prefix = 'mlds-speech-out-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  process.env.MLDS_AUDIO_SINK = `file:${dir}`;
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      delete process.env.MLDS_AUDIO_SINK;
    },
  };
}

/** The speech component's part of /status, in the shape the test reads. */
export async function speechOf<T>(svc: RunningService): Promise<T> {
  return ((await get(svc, '/status')).json.components as Record<string, T>).speech;
}

/** Waits (at most a minute) until nothing is spoken or waiting; the speech part of /status then. */
export async function speechIdle<T extends { speaking: unknown; queue: unknown[] }>(svc: RunningService): Promise<T> {
  await until(
    async () => {
      const s = await speechOf<T>(svc);
      return !s.speaking && s.queue.length === 0;
    },
    60_000,
    'speech idle',
  );
  return speechOf<T>(svc);
}
