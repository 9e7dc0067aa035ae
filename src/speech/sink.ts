// Where an announcement is heard: the display's audio device, as audio areas play
// (src/media/audio-sink.ts), and MLDS_AUDIO_SINK replaces it the same way:
//   null           made and discarded in real time (the CPU of speaking, no sound)
//   file:<folder>  <folder>/<display id>.announce.<n>.wav, 16 kHz mono 16-bit, n from 1 since
//                  the start; written under a hidden name beside it and renamed when complete
import path from 'node:path';

export const RATE = 16_000;

export type AnnounceSink =
  | { kind: 'alsa'; device: string; describe: string }
  | { kind: 'null'; describe: string }
  | { kind: 'file'; file: string; describe: string };

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

export function announceSink(
  device: string,
  displayId: string,
  n: number,
  env = process.env.MLDS_AUDIO_SINK,
): AnnounceSink {
  if (env === 'null') return { kind: 'null', describe: 'null' };
  if (env?.startsWith('file:')) {
    const file = path.join(env.slice('file:'.length), `${safe(displayId)}.announce.${n}.wav`);
    return { kind: 'file', file, describe: `file ${file}` };
  }
  return { kind: 'alsa', device, describe: `alsa ${device}` };
}
