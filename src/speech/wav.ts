// RIFF WAVE, as espeak-ng and ffmpeg write it: "RIFF" <size:u32le> "WAVE", then chunks of
// <id:4 bytes> <size:u32le> <bytes, padded to even>; "fmt " holds <format:u16> <channels:u16>
// <sampleRate:u32> <byteRate:u32> <blockAlign:u16> <bitsPerSample:u16>; "data" the samples.
// Only the header is read (at most the first 4 KB), whatever the file's size.
import { closeSync, openSync, readSync } from 'node:fs';

export interface WavInfo {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataBytes: number;
  dataOffset: number;
  seconds: number;
}

const HEAD = 4096;

export function parseWavHeader(b: Buffer): WavInfo | undefined {
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE')
    return undefined;
  let fmt: Omit<WavInfo, 'dataBytes' | 'dataOffset' | 'seconds'> | undefined;
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 24 <= b.length)
      fmt = {
        channels: b.readUInt16LE(at + 10),
        sampleRate: b.readUInt32LE(at + 12),
        bitsPerSample: b.readUInt16LE(at + 22),
      };
    if (id === 'data') {
      if (!fmt || !fmt.sampleRate || !fmt.channels || !fmt.bitsPerSample) return undefined;
      const bytesPerSecond = fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8);
      return { ...fmt, dataBytes: size, dataOffset: at + 8, seconds: size / bytesPerSecond };
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** The header of the WAV file `file`; undefined when it is not one. */
export function readWavInfo(file: string): WavInfo | undefined {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(HEAD);
    const n = readSync(fd, b, 0, HEAD, 0);
    return parseWavHeader(b.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}
