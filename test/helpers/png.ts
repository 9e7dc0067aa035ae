// PNG files built byte by byte, for pictures larger than any test should draw: one colour at
// 1 bit a pixel deflates to a few kilobytes however large, while decoding it takes w*h*4 bytes.
//   signature, then chunks: length (u32 BE), type (4 latin1), data, CRC-32 of type and data
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid w x h PNG of one colour: black (greyscale), or `rgb` (a palette of that one colour). */
export function flatPng(w: number, h: number, rgb?: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 1; // 1 bit a pixel
  ihdr[9] = rgb ? 3 : 0; // palette or greyscale
  const rows = Buffer.alloc(h * (1 + Math.ceil(w / 8))); // filter byte 0 and zero bits on every row
  const palette = rgb ? [pngChunk('PLTE', Buffer.from(rgb))] : [];
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', ihdr),
    ...palette,
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
