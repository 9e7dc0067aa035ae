// Where audio areas play to. On a unit: the ALSA device of the top-level `audioDevice`.
// MLDS_AUDIO_SINK replaces it (tests, benchmarks, a unit without a sound card):
//   null           decode and discard, in real time (the CPU of playing, no sound)
//   file:<folder>  raw PCM (signed 16-bit little-endian, mono, 8000 Hz), in real time, into
//                  <folder>/<display id>.<area id>.pcm (rewritten each time the area starts)
import path from 'node:path';

export interface Sink {
  /** ffmpeg output options and target, after the input. */
  args: string[];
  /** Whether ffmpeg must pace itself (-re): an ALSA device paces by its own clock. */
  realtime: boolean;
  /** For /status and logs. */
  describe: string;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

export function audioSink(device: string, displayId: string, areaId: string, env = process.env.MLDS_AUDIO_SINK): Sink {
  if (env === 'null') return { args: ['-f', 'null', '-'], realtime: true, describe: 'null' };
  if (env?.startsWith('file:')) {
    const file = path.join(env.slice('file:'.length), `${safe(displayId)}.${safe(areaId)}.pcm`);
    return {
      args: ['-ac', '1', '-ar', '8000', '-f', 's16le', '-flush_packets', '1', '-y', file],
      realtime: true,
      describe: `file ${file}`,
    };
  }
  return { args: ['-f', 'alsa', device], realtime: false, describe: `alsa ${device}` };
}
