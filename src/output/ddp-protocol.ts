/*
 * DDP, the Distributed Display Protocol (3waylabs), as WLED, FPP and xLights speak it: UDP to
 * port 4048, a 10-byte header, then pixel bytes at a byte offset into the receiver's buffer.
 *
 *   byte 0   flags   0b01000000 version 1; bit 0 PUSH (show what arrived), bit 1 QUERY,
 *                    bit 2 REPLY, bit 3 STORAGE, bit 4 TIMECODE (adds 4 bytes; never sent here)
 *   byte 1   sequence number in the low 4 bits, 1..15 then wrapping to 1 (0 = not used),
 *            one per packet so a receiver can drop duplicates and notice loss
 *   byte 2   data type 0x0B: 00 001 011 = standard type, RGB, 8 bits per channel
 *   byte 3   destination id: 1 = the receiver's default output
 *   4..7     data offset in bytes, big-endian
 *   8..9     data length in bytes, big-endian
 *   10..     data: R, G, B per pixel, rows top to bottom, left to right
 *
 * A picture goes out as packets of 1440 data bytes (480 pixels, the size FPP, WLED and xLights
 * use so a packet fits a 1500-byte MTU), the last one shorter, with PUSH set only on it.
 *
 * Sources (read for facts, no code taken): the DDP specification, http://www.3waylabs.com/ddp/;
 * FPP src/channeloutput/DDP.h and DDP.cpp (FalconChristmas/fpp); WLED wled00/udp.cpp and
 * const.h (DDP_TYPE_RGB24 = 0x0B, DDP_FLAGS1_VER1 = 0x40, DDP_PUSH = 0x01).
 */
import { rgbaToRgb } from './pixel-format.js';

export const DDP_PORT = 4048;
export const HEADER_LEN = 10;
export const MAX_DATA = 1440;
export const FLAG_VER1 = 0x40;
export const FLAG_PUSH = 0x01;
export const TYPE_RGB24 = 0x0b;
export const ID_DISPLAY = 1;

export function packetCount(dataBytes: number): number {
  return Math.ceil(dataBytes / MAX_DATA);
}

/** Pixels [from, to) of a picture, in reading order: what a partial update sends. */
export interface PixelRun {
  from: number;
  to: number;
}

/** Packets `runs` take: each run starts a packet of its own. */
export function runsPacketCount(runs: PixelRun[]): number {
  return runs.reduce((n, r) => n + packetCount((r.to - r.from) * 3), 0);
}

/**
 * Fills `buf` (sized (HEADER_LEN + MAX_DATA) * runsPacketCount(runs)) with the packets of the
 * picture's pixel runs (default: the whole picture) and `lengths` with their sizes; returns the
 * packet count. PUSH is set on the last packet only, so the receiver shows the picture once
 * everything arrived; pixels outside the runs stay as the receiver has them. `seq` is the
 * sequence number of the first packet; the next one is returned so the caller carries it across pictures.
 */
export function packetize(
  rgba: Uint8Array,
  pixels: number,
  buf: Uint8Array,
  lengths: Uint32Array,
  seq: number,
  lut?: Uint8Array,
  runs: PixelRun[] = [{ from: 0, to: pixels }],
): { count: number; seq: number } {
  const total = runsPacketCount(runs);
  let i = 0,
    at = 0;
  for (const run of runs) {
    const bytes = (run.to - run.from) * 3,
      n = packetCount(bytes),
      first = at;
    for (let k = 0; k < n; k++, i++) {
      const offset = run.from * 3 + k * MAX_DATA,
        len = Math.min(MAX_DATA, bytes - k * MAX_DATA);
      buf[at] = FLAG_VER1 | (i === total - 1 ? FLAG_PUSH : 0);
      buf[at + 1] = seq;
      buf[at + 2] = TYPE_RGB24;
      buf[at + 3] = ID_DISPLAY;
      buf[at + 4] = offset >>> 24;
      buf[at + 5] = (offset >> 16) & 0xff;
      buf[at + 6] = (offset >> 8) & 0xff;
      buf[at + 7] = offset & 0xff;
      buf[at + 8] = len >> 8;
      buf[at + 9] = len & 0xff;
      lengths[i] = HEADER_LEN + len;
      at += HEADER_LEN + len;
      seq = seq >= 15 ? 1 : seq + 1;
    }
    // 1440 bytes is a whole number of pixels, so the full packets' payloads are one strided
    // conversion (480-pixel runs, one per packet) and the short last packet a second one.
    const per = MAX_DATA / 3,
      stride = HEADER_LEN + MAX_DATA,
      pixelsIn = run.to - run.from;
    const full = Math.floor(pixelsIn / per),
      rest = pixelsIn - full * per,
      src = rgba.subarray(run.from * 4);
    if (full > 0) rgbaToRgb(src, per, buf, first + HEADER_LEN, lut, full, per * 4, stride);
    if (rest > 0) rgbaToRgb(src.subarray(full * per * 4), rest, buf, first + full * stride + HEADER_LEN, lut);
  }
  return { count: total, seq };
}
