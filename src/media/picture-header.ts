// A picture's size from its header, before anything is decoded: a 400 KB PNG can say
// 12000x12000, and decoding it takes 576 MB. Checked when a configuration loads and again
// before every decode, on the bytes that are decoded.
//
// PNG (ISO/IEC 15948): 89 50 4E 47 0D 0A 1A 0A, then the first chunk is IHDR:
//   [length u32 BE = 13]["IHDR"][width u32 BE][height u32 BE][depth][colour type]...
// JPEG (ITU-T T.81): FF D8, then segments FF <marker> [length u16 BE, counting itself][payload];
//   markers D0-D7 and 01 carry no length, FF bytes may pad. The frame header is SOF0-SOF15
//   except C4 (DHT), C8 (JPG) and CC (DAC): [precision u8][height u16 BE][width u16 BE]...
//   A height of 0 (set later by a DNL marker) is not accepted.
// GIF (GIF89a spec): "GIF87a" or "GIF89a", then the logical screen [width u16 LE][height u16 LE];
//   each frame's own size is checked when it is parsed (src/render/gif.ts).
import { MEGAPIXEL } from './picture-limits.js';
import { fileIdentity, withFile, type Reader } from './sniff.js';

/** JPEG segments walked before giving up on finding the frame header. */
const MAX_SEGMENTS = 10_000;

export type PictureSize = { format: 'png' | 'jpeg' | 'gif'; width: number; height: number };
export type PictureHeader = PictureSize | { error: string };

/** A buffer already in memory as a Reader. */
export function bufferReader(buf: Buffer): Reader {
  return { size: buf.length, read: (at, length) => buf.subarray(at, Math.min(buf.length, at + length)) };
}

export function pictureHeader(r: Reader): PictureHeader {
  const head = r.read(0, 24);
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) {
    if (head.toString('latin1', 12, 16) !== 'IHDR') return { error: 'is a damaged PNG (no IHDR chunk first)' };
    return { format: 'png', width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (head.length >= 10 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) {
    return { format: 'gif', width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  }
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) return jpegFrame(r);
  return { error: 'is not a PNG, JPEG or GIF picture' };
}

function jpegFrame(r: Reader): PictureHeader {
  let p = 2;
  for (let n = 0; n < MAX_SEGMENTS && p < r.size; n++) {
    const seg = r.read(p, 9);
    if (seg.length < 2 || seg[0] !== 0xff) return { error: 'is a damaged JPEG (a segment does not start with FF)' };
    const marker = seg[1];
    if (marker === 0xff) {
      p += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break;
    if (seg.length < 4) break;
    const length = seg.readUInt16BE(2);
    if (length < 2) return { error: 'is a damaged JPEG (a segment length below 2)' };
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (seg.length < 9) break;
      const height = seg.readUInt16BE(5),
        width = seg.readUInt16BE(7);
      if (width === 0 || height === 0) return { error: 'is a JPEG whose frame header gives no size' };
      return { format: 'jpeg', width, height };
    }
    p += 2 + length;
  }
  return { error: 'is a JPEG without a frame header (SOF) before its image data' };
}

const megapixels = (pixels: number) => +(pixels / MEGAPIXEL).toFixed(1);

/**
 * Why a picture of this header must not be decoded when a picture may have `maxPixels`
 * (limits.maxPictureMegapixels); undefined when it may be. A GIF plays from three pictures of its
 * size (the screen it composes frames on, the canvas drawn, a frame's copy), so it may have two
 * thirds of that: the same memory as two stills at the limit.
 */
export function pictureFault(h: PictureHeader, maxPixels: number): string | undefined {
  if ('error' in h) return h.error;
  if (h.width === 0 || h.height === 0) return `is ${h.width}x${h.height}: a picture needs at least one pixel`;
  const pixels = h.width * h.height;
  const size = `${h.width}x${h.height}`;
  if (pixels > maxPixels) {
    return `is ${size}, too large to show (at most ${megapixels(maxPixels)} megapixels: limits.maxPictureMegapixels)`;
  }
  if (h.format === 'gif' && 3 * pixels > 2 * maxPixels) {
    const most = megapixels((2 * maxPixels) / 3);
    return (
      `is a ${size} GIF, too large to play (a GIF keeps three pictures of its size: ` +
      `at most ${most} megapixels, two thirds of limits.maxPictureMegapixels)`
    );
  }
  return undefined;
}

/** Verdicts by path, for the file identity and limit they were made for; a bounded list (oldest dropped). */
const verdicts = new Map<string, { key: string; verdict: { fault: string } | PictureSize }>();
const MAX_VERDICTS = 1000;

/**
 * The picture file's format and size, or why it must not be decoded (unreadable, not a picture,
 * too large), from its header alone. Remembered per file identity, so a picture refused once is
 * not even opened again until it changes.
 */
export function pictureFileCheck(file: string, maxPixels: number): { fault: string } | PictureSize {
  const identity = fileIdentity(file);
  const key = `${identity}:${maxPixels}`;
  const hit = verdicts.get(file);
  if (identity !== undefined && hit?.key === key) return hit.verdict;
  let verdict: { fault: string } | PictureSize;
  try {
    const h = withFile(file, pictureHeader);
    const fault = pictureFault(h, maxPixels);
    verdict = fault !== undefined ? { fault } : (h as PictureSize);
  } catch (err) {
    verdict = { fault: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  if (identity !== undefined) {
    verdicts.delete(file);
    verdicts.set(file, { key, verdict });
    if (verdicts.size > MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
  }
  return verdict;
}

/** Why the picture file must not be decoded; undefined when it may be (pictureFileCheck). */
export function pictureFileFault(file: string, maxPixels: number): string | undefined {
  const v = pictureFileCheck(file, maxPixels);
  return 'fault' in v ? v.fault : undefined;
}
