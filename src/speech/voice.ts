// One announcement made audible: espeak-ng (Debian's, offline) writes the words as a WAV
// (22050 Hz mono), then one ffmpeg plays the chime and the words after it, resampled to 16 kHz
// mono, into the display's sink. Both children go through src/media/children.ts, so they are
// killed with the service however it ends, and `abort` ends them on a stop or a reload.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SpeechSettings } from '../config/types.js';
import { endChild, lastLine, spawnMedia, type Spawned } from '../media/children.js';
import { RATE, sinkArgs, type AnnounceSink } from './sink.js';
import { readWavInfo } from './wav.js';

/** espeak-ng makes 500 characters in well under a second; longer is a hung process. */
const ESPEAK_LIMIT_MS = 30_000;
/** The longest announcement plays for about 40 s, the chime a few more. */
const PLAY_LIMIT_MS = 180_000;

export interface Spoken {
  /** Length of what was heard (chime and words), in seconds. */
  seconds: number;
  /** ms from the start of espeak-ng to the sound reaching the sink (a file: to its rename). */
  firstSoundMs: number;
}

export class SpeechStopped extends Error {}

const MONO = `aresample=${RATE},aformat=sample_fmts=s16:channel_layouts=mono`;

export class Voice {
  private child: Spawned | undefined;
  private aborted = false;

  constructor(private readonly tmp: string) {}

  /** Speaks `text`; rejects with the fault (espeak-ng's or ffmpeg's last line) or SpeechStopped. */
  async speak(text: string, s: SpeechSettings, sink: AnnounceSink): Promise<Spoken> {
    this.aborted = false;
    const started = performance.now();
    const textFile = path.join(this.tmp, 'text.txt');
    const words = path.join(this.tmp, 'words.wav');
    // A file, not an argument: a text starting with "-" is never read as an option.
    writeFileSync(textFile, text);
    await this.run('espeak-ng', ['-v', s.voice, '-s', String(s.rate), '-a', String(s.volume * 2), '-b', '1', '-f', textFile, '-w', words], ESPEAK_LIMIT_MS);
    const temp = path.join(this.tmp, 'out.wav');
    const inputs = s.chime ? ['-i', s.chime, '-i', words] : ['-i', words];
    const filter = s.chime ? `[0:a]${MONO}[c];[1:a]${MONO}[w];[c][w]concat=n=2:v=0:a=1[out]` : `[0:a]${MONO}[out]`;
    const playStart = performance.now();
    await this.run('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-nostdin', '-threads', '1',
      // A sound card paces itself; `null` is paced so it costs what speaking costs.
      ...(sink.kind === 'null' ? ['-re'] : []),
      ...inputs, '-filter_complex', filter, '-map', '[out]', ...sinkArgs(sink, temp),
    ], PLAY_LIMIT_MS);
    if (sink.kind === 'file') {
      const info = readWavInfo(temp);
      renameSync(temp, sink.file);
      return { seconds: info?.seconds ?? 0, firstSoundMs: performance.now() - started };
    }
    return { seconds: (performance.now() - playStart) / 1000, firstSoundMs: playStart - started };
  }

  /** Ends the child speaking now (a stop, a reload); its speak() rejects with SpeechStopped. */
  async abort(): Promise<void> {
    this.aborted = true;
    const c = this.child;
    if (c) await endChild(c, 500);
  }

  cleanup(): void {
    rmSync(this.tmp, { recursive: true, force: true });
  }

  private async run(cmd: string, args: string[], limitMs: number): Promise<void> {
    if (this.aborted) throw new SpeechStopped('stopped');
    const child = spawnMedia(cmd, args, false);
    this.child = child;
    const limit = setTimeout(() => { void endChild(child, 500); }, limitMs);
    limit.unref();
    const code = await child.exited;
    clearTimeout(limit);
    this.child = undefined;
    if (this.aborted) throw new SpeechStopped('stopped');
    if (code !== 0) throw new Error(`${cmd}: ${lastLine(child.stderr()) || (code === null ? 'killed' : `ended with code ${code}`)}`);
  }
}
