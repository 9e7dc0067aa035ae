// What the speech tests measure of a WAV file: its header, its samples and their loudness,
// and what Debian's espeak-ng makes of the same words on its own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseWavHeader, type WavInfo } from '../../src/speech/wav.js';

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
