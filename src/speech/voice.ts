// One announcement made audible: espeak-ng (Debian's, offline) writes the words as a WAV
// (22050 Hz mono), then sox plays the chime and the words after it, resampled to 16 kHz mono,
// into the display's sink. sox, not ffmpeg: on the loaded 2-core test machine ffmpeg took
// 500-680 ms to start and resample a sentence, sox 10-50 ms, and that is most of the time from
// /announce to the first sound. ffmpeg still converts the chime, once per file, to the words'
// format (sox concatenates only like with like), and plays the `null` sink in real time.
// Every child goes through src/media/children.ts, so it is killed with the service however it
// ends, and `abort` ends it on a stop or a reload.
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SpeechSettings } from '../config/alert-speech-types.js';
import { endChild, FFMPEG_QUIET, lastLine, spawnMedia, type Spawned } from '../media/children.js';
import { RATE, type AnnounceSink } from './sink.js';
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

export class Voice {
  private child: Spawned | undefined;
  private aborted = false;
  /** The chime as a WAV like espeak-ng's words, by file, its change time and the rate. */
  private readonly chimes = new Map<string, string>();

  constructor(private readonly tmp: string) {}

  /** Speaks `text`; rejects with the fault (the last line of espeak-ng, sox or ffmpeg) or SpeechStopped. */
  async speak(text: string, s: SpeechSettings, sink: AnnounceSink): Promise<Spoken> {
    this.aborted = false;
    const started = performance.now();
    const textFile = path.join(this.tmp, 'text.txt');
    const words = path.join(this.tmp, 'words.wav');
    // A file, not an argument: a text starting with "-" is never read as an option.
    writeFileSync(textFile, text);
    await this.run(
      'espeak-ng',
      ['-v', s.voice, '-s', String(s.rate), '-a', String(s.volume * 2), '-b', '1', '-f', textFile, '-w', words],
      ESPEAK_LIMIT_MS,
    );
    const made = readWavInfo(words);
    if (!made) throw new Error('espeak-ng wrote no WAV');
    const inputs = s.chime ? [await this.chimeLike(s.chime, made.sampleRate), words] : [words];
    // Beside the announcement's file (a rename across filesystems fails), hidden until complete.
    const temp = sink.kind === 'file' ? path.join(path.dirname(sink.file), `.${path.basename(sink.file)}.part`) : '';
    const playStart = performance.now();
    if (sink.kind === 'null') {
      // Paced (-re) so it costs what speaking costs, as audio areas' null sink does.
      await this.run(
        'ffmpeg',
        [
          ...FFMPEG_QUIET,
          '-re',
          ...inputs.flatMap((f) => ['-i', f]),
          '-filter_complex',
          `${inputs.map((_, i) => `[${i}:a]`).join('')}concat=n=${inputs.length}:v=0:a=1,aresample=${RATE}[out]`,
          '-map',
          '[out]',
          '-ac',
          '1',
          '-f',
          'null',
          '-',
        ],
        PLAY_LIMIT_MS,
      );
    } else {
      // -G: headroom for the resampler (espeak-ng near full scale clips by a few samples otherwise).
      const target = sink.kind === 'file' ? ['-t', 'wav', temp] : ['-t', 'alsa', sink.device];
      await this.run(
        'sox',
        ['-V1', '-G', ...inputs, '-r', String(RATE), '-c', '1', '-b', '16', '-e', 'signed-integer', ...target],
        PLAY_LIMIT_MS,
      );
    }
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

  /** `chime` as 16-bit mono WAV at `rate`, made once per file version and rate. */
  private async chimeLike(chime: string, rate: number): Promise<string> {
    const key = `${chime}\n${statSync(chime).mtimeMs}\n${rate}`;
    const made = this.chimes.get(key);
    if (made) return made;
    const file = path.join(this.tmp, `chime.${this.chimes.size + 1}.wav`);
    await this.run(
      'ffmpeg',
      [
        ...FFMPEG_QUIET,
        '-i',
        chime,
        '-map',
        '0:a:0',
        '-ac',
        '1',
        '-ar',
        String(rate),
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        '-y',
        file,
      ],
      PLAY_LIMIT_MS,
    );
    this.chimes.set(key, file);
    return file;
  }

  cleanup(): void {
    rmSync(this.tmp, { recursive: true, force: true });
  }

  private async run(cmd: string, args: string[], limitMs: number): Promise<void> {
    if (this.aborted) throw new SpeechStopped('stopped');
    const child = spawnMedia(cmd, args, false);
    this.child = child;
    const limit = setTimeout(() => {
      void endChild(child, 500);
    }, limitMs);
    limit.unref();
    const code = await child.exited;
    clearTimeout(limit);
    this.child = undefined;
    if (this.aborted) throw new SpeechStopped('stopped');
    if (code !== 0)
      throw new Error(`${cmd}: ${lastLine(child.stderr()) || (code === null ? 'killed' : `ended with code ${code}`)}`);
  }
}
