// What ffprobe says a media file holds. Configuration load checks every video and audio file
// synchronously by its header (src/media/sniff.ts: no child process on the start path; a file
// that is not one is a fault there, not a blank area later); ffprobe runs when a video first
// plays. Results are kept per file identity, so a re-check of an unchanged folder runs none.
import { execFile } from 'node:child_process';
import { fileIdentity, sniffMedia, type MediaInfo } from './sniff.js';

export type { MediaInfo };

/** `unavailable`: ffprobe is missing, so nothing can be known at load (the file is accepted). */
export type ProbeResult = { info: MediaInfo } | { error: string } | { unavailable: string };

const FFPROBE = 'ffprobe';
const TIMEOUT_MS = 15_000;
const ARGS = [
  '-v',
  'error',
  '-of',
  'json',
  '-show_entries',
  [
    'format=format_name,duration',
    'stream=codec_type,codec_name,width,height,avg_frame_rate,r_frame_rate,sample_rate,channels',
    'stream_disposition=attached_pic',
  ].join(':'),
];

const cache = new Map<string, { key: string; result: ProbeResult }>();

function rate(r: unknown): number {
  const [n, d] = String(r ?? '')
    .split('/')
    .map(Number);
  return n > 0 && d > 0 ? n / d : 0;
}

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
}

function parse(stdout: string): ProbeResult {
  let doc: { format?: { format_name?: string; duration?: string }; streams?: RawStream[] };
  try {
    doc = JSON.parse(stdout) as typeof doc;
  } catch {
    return { error: 'ffprobe gave no readable answer' };
  }
  const info: MediaInfo = { format: doc.format?.format_name ?? '' };
  const duration = Number(doc.format?.duration);
  if (duration > 0) info.duration = duration;
  for (const s of doc.streams ?? []) {
    // A cover picture inside an MP3 or MP4 is a "video" stream of one frame: not a video.
    if (s.codec_type === 'video' && !info.video && !s.disposition?.attached_pic && (s.width ?? 0) > 0) {
      info.video = {
        codec: s.codec_name ?? '?',
        width: s.width ?? 0,
        height: s.height ?? 0,
        fps: rate(s.avg_frame_rate) || rate(s.r_frame_rate) || 25,
      };
    } else if (s.codec_type === 'audio' && !info.audio) {
      info.audio = { codec: s.codec_name ?? '?', sampleRate: Number(s.sample_rate) || 0, channels: s.channels ?? 0 };
    }
  }
  return { info };
}

function failure(
  err: { code?: unknown; message: string } | null | undefined,
  stderr: string,
  status: number | null,
): ProbeResult | undefined {
  if (err?.code === 'ENOENT') return { unavailable: 'ffprobe is not installed' };
  if (err && (err as { killed?: boolean }).killed) return { error: `ffprobe took longer than ${TIMEOUT_MS / 1000} s` };
  if (err || status !== 0) {
    const line =
      stderr
        .trim()
        .split('\n')
        .pop()
        ?.replace(/^.*?: /, '') ?? '';
    return { error: line || `ffprobe failed (${err?.message ?? `exit ${status}`})` };
  }
  return undefined;
}

/**
 * What `file` holds, now, without a child process (configuration load is synchronous): ffprobe's
 * answer when an earlier probe() of the same file identity has one, else the file's header.
 */
export function probeSync(file: string): ProbeResult {
  const key = fileIdentity(file);
  const hit = cache.get(file);
  if (key && hit?.key === key) return hit.result;
  const r = sniffMedia(file);
  return 'unknown' in r ? { unavailable: r.unknown } : r;
}

/** ffprobe's answer, without blocking (a video's frame rate when it starts playing). */
export function probe(file: string): Promise<ProbeResult> {
  const key = fileIdentity(file);
  const hit = cache.get(file);
  if (key && hit?.key === key) return Promise.resolve(hit.result);
  return new Promise((resolve) => {
    execFile(
      FFPROBE,
      [...ARGS, file],
      { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        const result = failure(err, stderr, err ? null : 0) ?? parse(stdout);
        if (key && !('unavailable' in result)) cache.set(file, { key, result });
        resolve(result);
      },
    );
  });
}

/** Why `info` is not an MP4 video the areas can play; undefined when it is one. */
export function notVideo(info: MediaInfo): string | undefined {
  if (!info.format.split(',').includes('mp4')) return `is not an MP4 file (it reads as ${info.format || 'unknown'})`;
  if (!info.video) return 'holds no video stream';
  return undefined;
}

/** Why `info` is not MP3 or WAV audio; undefined when it is. */
export function notAudio(info: MediaInfo): string | undefined {
  const formats = info.format.split(',');
  if (!formats.includes('mp3') && !formats.includes('wav'))
    return `is not an MP3 or WAV file (it reads as ${info.format || 'unknown'})`;
  if (!info.audio) return 'holds no audio stream';
  return undefined;
}
