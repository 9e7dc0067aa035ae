// What a video or audio file's own header says, read in-process: the configuration-load check
// of media files, so loading a configuration runs no ffprobe child (about 150 ms a file, on the
// start path). ffprobe still runs, asynchronously, when a video first plays (src/media/probe.ts).
//
// MP4 / QuickTime (ISO/IEC 14496-12): the file is a sequence of boxes
//   [size u32 BE][type 4 ASCII][payload]; size 1: a u64 BE size follows the type; size 0: to the end.
//   moov > trak > tkhd   v0 payload 84 bytes, v1 96; the last 8 bytes are width, height (16.16 fixed)
//   trak > mdia > mdhd   [version 1][flags 3] then v0: [ctime 4][mtime 4][timescale 4][duration 4]
//                                                 v1: [ctime 8][mtime 8][timescale 4][duration 8]
//   trak > mdia > hdlr   [version/flags 4][pre_defined 4][handler 4: "vide", "soun", ...]
//   trak > mdia > minf > stbl > stsd  [version/flags 4][count 4] then sample entries [size 4][format 4]
//        visual entry: [reserved 6][dref 2][16 bytes][width u16][height u16]
//        audio entry:  [reserved 6][dref 2][8 bytes][channels u16][sample size u16][4 bytes][rate 16.16]
//   trak > mdia > minf > stbl > stts  [version/flags 4][count 4] then [sample count 4][sample delta 4]...
// WAV: "RIFF" [size u32 LE] "WAVE", then chunks [id 4][size u32 LE][data, padded to even];
//   "fmt ": [format tag u16][channels u16][sample rate u32]...
// MP3: an optional ID3v2 tag "ID3" [version 2][flags 1][size: 4 bytes of 7 bits], then MPEG audio
//   frames, each opening with 4 bytes: sync 11 bits, version 2, layer 2, no-CRC 1, bitrate 4,
//   sample rate 2, padding 1, private 1, channel mode 2 (3 = mono), 6 more bits.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** ffprobe's format_name for every file its mov demuxer reads: the names notVideo() looks for. */
export const MOV_FORMAT = 'mov,mp4,m4a,3gp,3g2,mj2';
/** A moov box larger than this is not read (its file is accepted unread, as without ffprobe). */
const MAX_MOOV = 32 << 20;
/** Box types a file may open with (ffmpeg's mov probe knows these too). */
const TOP_LEVEL = new Set([
  'ftyp',
  'moov',
  'mdat',
  'free',
  'skip',
  'wide',
  'pnot',
  'styp',
  'uuid',
  'udta',
  'junk',
  'pict',
  'sidx',
]);

/** What a media file holds, as ffprobe or the header sniffing tells it. */
export interface MediaInfo {
  /** ffprobe's format_name, e.g. "mov,mp4,m4a,3gp,3g2,mj2", "mp3", "wav". */
  format: string;
  duration?: number;
  video?: { codec: string; width: number; height: number; fps: number };
  audio?: { codec: string; sampleRate: number; channels: number };
}

export type SniffResult = { info: MediaInfo } | { error: string } | { unknown: string };

export interface Reader {
  size: number;
  read(at: number, length: number): Buffer;
}

/**
 * A file's identity (device, inode, size, modification time): what is known of it holds until it is replaced or
 * changed.
 */
export function fileIdentity(file: string): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return undefined;
  }
}

export function withFile<T>(file: string, fn: (r: Reader) => T): T {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    return fn({
      size,
      read(at, length) {
        const buf = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
        let got = 0;
        while (got < buf.length) {
          const n = readSync(fd, buf, got, buf.length - got, at + got);
          if (n === 0) break;
          got += n;
        }
        return buf.subarray(0, got);
      },
    });
  } finally {
    closeSync(fd);
  }
}

/** The boxes directly inside buf[start, end): type, payload start and end. Undefined when they do not tile it. */
function boxes(buf: Buffer, start = 0, end = buf.length): Array<{ type: string; at: number; end: number }> | undefined {
  const out: Array<{ type: string; at: number; end: number }> = [];
  for (let p = start; p < end;) {
    if (end - p < 8) return undefined;
    let size = buf.readUInt32BE(p);
    let header = 8;
    if (size === 1) {
      if (end - p < 16) return undefined;
      size = Number(buf.readBigUInt64BE(p + 8));
      header = 16;
    } else if (size === 0) size = end - p;
    if (size < header || p + size > end) return undefined;
    out.push({ type: buf.toString('latin1', p + 4, p + 8), at: p + header, end: p + size });
    p += size;
  }
  return out;
}

function child(
  buf: Buffer,
  parent: { at: number; end: number },
  type: string,
): { at: number; end: number } | undefined {
  return boxes(buf, parent.at, parent.end)?.find((b) => b.type === type);
}

function path(
  buf: Buffer,
  parent: { at: number; end: number },
  ...types: string[]
): { at: number; end: number } | undefined {
  let box: { at: number; end: number } | undefined = parent;
  for (const t of types) box = box && child(buf, box, t);
  return box;
}

/** The moov box of an MP4 (wherever it is in the file), or why the file is not one. */
function moovOf(r: Reader): Buffer | 'not mp4' | 'too large' {
  let first = true;
  for (let p = 0; p < r.size;) {
    const head = r.read(p, 16);
    if (head.length < 8) return 'not mp4';
    let size = head.readUInt32BE(0);
    let header = 8;
    const type = head.toString('latin1', 4, 8);
    if (first && !TOP_LEVEL.has(type)) return 'not mp4';
    first = false;
    if (size === 1) {
      if (head.length < 16) return 'not mp4';
      size = Number(head.readBigUInt64BE(8));
      header = 16;
    } else if (size === 0) size = r.size - p;
    if (size < header || !/^[\x20-\x7e]{4}$/.test(type)) return 'not mp4';
    if (type === 'moov') return size > MAX_MOOV ? 'too large' : r.read(p + header, size - header);
    p += size;
  }
  return 'not mp4';
}

function track(buf: Buffer, trak: { at: number; end: number }, info: MediaInfo): void {
  const mdia = child(buf, trak, 'mdia');
  const hdlr = mdia && child(buf, mdia, 'hdlr');
  if (!mdia || !hdlr || hdlr.end - hdlr.at < 12) return;
  const handler = buf.toString('latin1', hdlr.at + 8, hdlr.at + 12);
  const stsd = path(buf, mdia, 'minf', 'stbl', 'stsd');
  const entry =
    stsd && stsd.end - stsd.at >= 16
      ? { at: stsd.at + 8, format: buf.toString('latin1', stsd.at + 12, stsd.at + 16) }
      : undefined;
  if (handler === 'vide' && !info.video) {
    let width = 0,
      height = 0;
    if (entry && stsd!.end - entry.at >= 36) {
      width = buf.readUInt16BE(entry.at + 32);
      height = buf.readUInt16BE(entry.at + 34);
    }
    const tkhd = child(buf, trak, 'tkhd');
    if ((!width || !height) && tkhd && tkhd.end - tkhd.at >= 84) {
      width = buf.readUInt32BE(tkhd.end - 8) >>> 16;
      height = buf.readUInt32BE(tkhd.end - 4) >>> 16;
    }
    if (width > 0 && height > 0)
      info.video = { codec: entry?.format ?? '?', width, height, fps: frameRate(buf, mdia) || 25 };
  } else if (handler === 'soun' && !info.audio) {
    const ok = entry && stsd!.end - entry.at >= 36;
    info.audio = {
      codec: entry?.format ?? '?',
      channels: ok ? buf.readUInt16BE(entry.at + 24) : 0,
      sampleRate: ok ? buf.readUInt32BE(entry.at + 32) >>> 16 : 0,
    };
  }
}

/** Frames a second from the media timescale and the first sample's duration; 0 when unknown. */
function frameRate(buf: Buffer, mdia: { at: number; end: number }): number {
  const mdhd = child(buf, mdia, 'mdhd');
  const stts = path(buf, mdia, 'minf', 'stbl', 'stts');
  if (!mdhd || !stts || stts.end - stts.at < 16) return 0;
  const v1 = buf[mdhd.at] === 1;
  if (mdhd.end - mdhd.at < (v1 ? 24 : 16)) return 0;
  const timescale = buf.readUInt32BE(mdhd.at + (v1 ? 20 : 12));
  const delta = buf.readUInt32BE(stts.at + 12);
  return timescale > 0 && delta > 0 ? timescale / delta : 0;
}

function sniffMp4(r: Reader): SniffResult | undefined {
  const moov = moovOf(r);
  if (moov === 'not mp4') return undefined;
  if (moov === 'too large') return { unknown: 'its moov box is too large to read at load' };
  const info: MediaInfo = { format: MOV_FORMAT };
  const top = { at: 0, end: moov.length };
  const list = boxes(moov, top.at, top.end);
  if (!list) return { error: 'its moov box is damaged' };
  for (const b of list) if (b.type === 'trak') track(moov, b, info);
  return { info };
}

function sniffWav(r: Reader): SniffResult | undefined {
  const head = r.read(0, 12);
  if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE')
    return undefined;
  for (let p = 12; p + 8 <= r.size && p < 1 << 20;) {
    const c = r.read(p, 16);
    if (c.length < 8) break;
    const size = c.readUInt32LE(4);
    if (c.toString('latin1', 0, 4) === 'fmt ') {
      if (c.length < 16) break;
      const channels = c.readUInt16LE(10),
        sampleRate = c.readUInt32LE(12);
      return {
        info: {
          format: 'wav',
          ...(channels > 0 && sampleRate > 0
            ? { audio: { codec: `wav format ${c.readUInt16LE(8)}`, channels, sampleRate } }
            : {}),
        },
      };
    }
    p += 8 + size + (size & 1);
  }
  return { info: { format: 'wav' } };
}

const KBPS: Record<string, number[]> = {
  '1:1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1:2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1:3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2:1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2:2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES = [44100, 48000, 32000];

/** One MPEG audio frame header at buf[p]: its length in bytes, rate and channels; undefined when it is not one. */
export function mpegFrame(
  buf: Buffer,
  p: number,
): { length: number; sampleRate: number; channels: number } | undefined {
  if (p + 4 > buf.length || buf[p] !== 0xff || (buf[p + 1] & 0xe0) !== 0xe0) return undefined;
  const version = (buf[p + 1] >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = 4 - ((buf[p + 1] >> 1) & 3); // 1, 2, 3 (4: reserved)
  const bitrateIndex = buf[p + 2] >> 4,
    rateIndex = (buf[p + 2] >> 2) & 3,
    padding = (buf[p + 2] >> 1) & 1;
  if (version === 1 || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const mpeg1 = version === 3;
  const kbps = KBPS[`${mpeg1 ? 1 : 2}:${mpeg1 ? layer : Math.min(layer, 2)}`][bitrateIndex];
  const sampleRate = RATES[rateIndex] / (mpeg1 ? 1 : version === 2 ? 2 : 4);
  const length =
    layer === 1
      ? (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4
      : Math.floor(((layer === 3 && !mpeg1 ? 72 : 144) * kbps * 1000) / sampleRate) + padding;
  return { length, sampleRate, channels: buf[p + 3] >> 6 === 3 ? 1 : 2 };
}

/** Frames that must follow one another (or reach the end of the file) for the data to count as MP3. */
const MP3_FRAMES = 3;
/** How far after the start (or the ID3 tag) the first frame may begin. */
const MP3_SKIP = 4096;

function sniffMp3(r: Reader): SniffResult | undefined {
  let start = 0;
  const id3 = r.read(0, 10);
  if (id3.length === 10 && id3.toString('latin1', 0, 3) === 'ID3') {
    start =
      10 +
      (((id3[6] & 0x7f) << 21) | ((id3[7] & 0x7f) << 14) | ((id3[8] & 0x7f) << 7) | (id3[9] & 0x7f)) +
      (id3[5] & 0x10 ? 10 : 0);
  }
  const buf = r.read(start, 64 << 10);
  // The first frame within a few kB of the start (encoders pad after the tag).
  for (let p = 0; p + 4 <= buf.length && p <= MP3_SKIP; p++) {
    const first = mpegFrame(buf, p);
    if (!first) continue;
    let q = p,
      n = 0;
    for (let f: typeof first | undefined = first; f && n < MP3_FRAMES; f = mpegFrame(buf, q)) {
      q += f.length;
      n++;
    }
    // The frames run on, or end with the file (a short file may hold fewer than MP3_FRAMES).
    if (n >= MP3_FRAMES || start + q === r.size) {
      return {
        info: { format: 'mp3', audio: { codec: 'mp3', sampleRate: first.sampleRate, channels: first.channels } },
      };
    }
  }
  return undefined;
}

/** What `file` holds by its header: an MP4 (its tracks), WAV or MP3; `{ info: { format: '' } }` for anything else. */
export function sniffMedia(file: string): SniffResult {
  try {
    return withFile(file, (r) => sniffMp4(r) ?? sniffWav(r) ?? sniffMp3(r) ?? { info: { format: '' } });
  } catch (err) {
    return { error: (err as Error).message };
  }
}
