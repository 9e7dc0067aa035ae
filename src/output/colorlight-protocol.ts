/*
 * Colorlight receiver cards (5A-75, 5A-75B/E, i5A-907...) over raw Ethernet, as FPP drives them.
 *
 * Every frame: dst MAC 11:22:33:44:55:66, src MAC 22:22:33:44:55:66, then byte 12 is the packet
 * type and byte 13 the first data byte. Bytes 12-13 sit where the EtherType goes, so the
 * "EtherType" on the wire is (type << 8) | data[0]: 0x0107 sync, 0x0AFF brightness at 100%,
 * 0x55RR rows. Offsets below are from the start of the Ethernet frame; data[n] = byte 13 + n.
 *
 *   Brightness  type 0x0A, 77 bytes (63 after the 14-byte Ethernet header)
 *     12      0x0A
 *     13-15   brightness 0..255, three times (R, G, B)
 *     16      0xFF
 *     17-76   0
 *
 *   Row data    type 0x55, 21-byte header + 3 bytes per pixel, at most 497 pixels per packet
 *     12      0x55
 *     13-14   row number, big-endian
 *     15-16   offset of the first pixel in the row, big-endian
 *     17-18   pixels in this packet, big-endian
 *     19      0x08    (constant in every capture; meaning unknown)
 *     20      0x88    (constant in every capture; meaning unknown)
 *     21..    R, G, B per pixel
 *
 *   Frame sync  type 0x01, 112 bytes (98 after the Ethernet header): latch the rows to the LEDs
 *     12      0x01
 *     13      0x07    (sent from a PC/netcard; 0x00 from a Colorlight sender)
 *     35      brightness (data[22])
 *     36      0x05    (data[23])
 *     38-40   brightness, three times (data[25..27])
 *     rest    0
 *
 *   Discovery   type 0x07, 284 bytes; byte 16 (data[3]) = receiver index 0, 1, ...
 *   Reply       type 0x08, 1070 bytes, from the card with source MAC 11:22:33:44:55:66, EtherType 0x0805
 *     data[2], data[3]     firmware major, minor
 *     data[21..22]         cabinet width, big-endian
 *     data[23..24]         cabinet height, big-endian
 *     data[38..41]         packets received, big-endian
 *     data[46..49]         uptime in ms, big-endian
 *     data[85]             receiver card number
 *
 * Per picture: brightness, all row packets, sync. Firmware 13 and later expects the brightness
 * and sync packets twice each (LEDVision does so; older firmware is timing-sensitive to it).
 *
 * Sources (read for facts, no code taken): FPP src/channeloutput/ColorLight-5a-75.cpp and .h
 * (FalconChristmas/fpp, packet table and GetReceiverInfo), docs/ColorLight_Wireshark.lua in the
 * same repository; https://hkubota.wordpress.com/2022/01/31/winter-project-colorlight-5a-75b-protocol/
 */
import { rgbaToRgb } from './pixel-format.js';

export const DST_MAC = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66];
export const SRC_MAC = [0x22, 0x22, 0x33, 0x44, 0x55, 0x66];
export const TYPE_SYNC = 0x01;
export const TYPE_DISCOVER = 0x07;
export const TYPE_REPLY = 0x08;
export const TYPE_BRIGHTNESS = 0x0a;
export const TYPE_ROW = 0x55;
export const SYNC_LEN = 112;
export const BRIGHTNESS_LEN = 77;
export const DISCOVER_LEN = 284;
export const ROW_HEADER_LEN = 21;
export const MAX_ROW_PIXELS = 497;
/** The EtherType a receiver's discovery reply arrives with (type 0x08, data[0] 0x05). */
export const REPLY_ETHERTYPE = 0x0805;
/** Firmware from which sync and brightness go out twice. */
export const REPEAT_FIRMWARE = 13;

const TYPE_AT = 12;
const DATA_AT = 13;

const MACS = Uint8Array.from([...DST_MAC, ...SRC_MAC]);

function header(buf: Uint8Array, at: number, type: number): void {
  buf.set(MACS, at);
  buf[at + TYPE_AT] = type;
}

/** 0..100 % to the card's 0..255. */
export const brightnessByte = (percent: number) => Math.round(Math.min(100, Math.max(0, percent)) * 2.55);

export function writeBrightness(buf: Uint8Array, at: number, level: number): number {
  buf.fill(0, at, at + BRIGHTNESS_LEN);
  header(buf, at, TYPE_BRIGHTNESS);
  buf[at + DATA_AT] = buf[at + DATA_AT + 1] = buf[at + DATA_AT + 2] = level;
  buf[at + DATA_AT + 3] = 0xff;
  return BRIGHTNESS_LEN;
}

export function writeSync(buf: Uint8Array, at: number, level: number): number {
  buf.fill(0, at, at + SYNC_LEN);
  header(buf, at, TYPE_SYNC);
  const d = at + DATA_AT;
  buf[d] = 0x07;
  buf[d + 22] = level;
  buf[d + 23] = 0x05;
  buf[d + 25] = buf[d + 26] = buf[d + 27] = level;
  return SYNC_LEN;
}

export function writeRowHeader(buf: Uint8Array, at: number, row: number, offset: number, pixels: number): number {
  header(buf, at, TYPE_ROW);
  const d = at + DATA_AT;
  buf[d] = row >> 8;
  buf[d + 1] = row & 0xff;
  buf[d + 2] = offset >> 8;
  buf[d + 3] = offset & 0xff;
  buf[d + 4] = pixels >> 8;
  buf[d + 5] = pixels & 0xff;
  buf[d + 6] = 0x08;
  buf[d + 7] = 0x88;
  return ROW_HEADER_LEN;
}

export function discoveryPacket(index: number): Uint8Array {
  const buf = new Uint8Array(DISCOVER_LEN);
  header(buf, 0, TYPE_DISCOVER);
  buf[DATA_AT + 3] = index;
  return buf;
}

export interface ReceiverInfo {
  card: number;
  model: number;
  firmware: string;
  firmwareMajor: number;
  width: number;
  height: number;
  packets: number;
  uptimeMs: number;
}

const be16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const be32 = (b: Uint8Array, i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;

/** A discovery reply, or undefined for anything else that reached the socket. */
export function parseReply(buf: Uint8Array): ReceiverInfo | undefined {
  // Replies are 1070 bytes; FPP accepts anything over 1000 as the cards pad differently.
  if (buf.length <= 1000 || buf[TYPE_AT] !== TYPE_REPLY) return undefined;
  if (!DST_MAC.every((b, i) => buf[6 + i] === b)) return undefined;
  const d = (n: number) => DATA_AT + n;
  return {
    card: buf[d(85)],
    model: buf[d(0)],
    firmwareMajor: buf[d(2)],
    firmware: `${buf[d(2)]}.${buf[d(3)]}`,
    width: be16(buf, d(21)),
    height: be16(buf, d(23)),
    packets: be32(buf, d(38)),
    uptimeMs: be32(buf, d(46)),
  };
}

/** One picture as it goes on the wire: packets end to end in `buf`, their sizes in `lengths`. */
export interface Packets {
  buf: Uint8Array;
  lengths: Uint32Array;
}

/** Packet count and bytes of one picture, so the caller can reuse one buffer for every frame. */
export function frameLayout(width: number, height: number, repeat: boolean): { count: number; bytes: number } {
  const perRow = Math.ceil(width / MAX_ROW_PIXELS);
  const twice = repeat ? 2 : 1;
  return {
    count: twice * 2 + height * perRow,
    bytes: twice * (BRIGHTNESS_LEN + SYNC_LEN) + height * (perRow * ROW_HEADER_LEN + width * 3),
  };
}

/**
 * Fills `out` (sized by frameLayout) with brightness, the rows of `runs` (default: every row)
 * split at 497 pixels, then sync; returns the packet count. The cards keep rows they are not
 * sent and latch everything on sync, so a partial picture carries the changed rows only.
 */
export function packetize(
  rgba: Uint8Array,
  width: number,
  height: number,
  level: number,
  repeat: boolean,
  out: Packets,
  runs: Array<{ y0: number; y1: number }> = [{ y0: 0, y1: height }],
): number {
  const { buf, lengths } = out;
  const perRow = Math.ceil(width / MAX_ROW_PIXELS);
  const rowBytes = perRow * ROW_HEADER_LEN + width * 3;
  let at = 0,
    n = 0;
  const push = (len: number) => {
    lengths[n++] = len;
    at += len;
  };
  for (let i = 0; i < (repeat ? 2 : 1); i++) push(writeBrightness(buf, at, level));
  for (const { y0, y1 } of runs) {
    const rowsAt = at;
    for (let row = y0; row < y1; row++) {
      for (let offset = 0; offset < width; offset += MAX_ROW_PIXELS) {
        const pixels = Math.min(MAX_ROW_PIXELS, width - offset);
        writeRowHeader(buf, at, row, offset, pixels);
        push(ROW_HEADER_LEN + pixels * 3);
      }
    }
    // The payloads: one conversion per column strip covers that strip's packet in every row of the run.
    for (let k = 0, offset = 0; offset < width; k++, offset += MAX_ROW_PIXELS) {
      const pixels = Math.min(MAX_ROW_PIXELS, width - offset);
      rgbaToRgb(
        rgba.subarray((y0 * width + offset) * 4),
        pixels,
        buf,
        rowsAt + (k + 1) * ROW_HEADER_LEN + offset * 3,
        undefined,
        y1 - y0,
        width * 4,
        rowBytes,
      );
    }
  }
  for (let i = 0; i < (repeat ? 2 : 1); i++) push(writeSync(buf, at, level));
  return n;
}
