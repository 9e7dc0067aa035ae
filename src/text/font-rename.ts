// A copy of a TrueType/OpenType font whose `name` table carries a family name of our choosing.
// fontconfig and pango pick a face by the family and style names inside the file, so two files
// that claim one family (DejaVuSans.ttf and DejaVuSans-Bold.ttf, or two unrelated fonts both
// calling themselves "Sign") cannot be told apart by the name given to registerFont. Renamed,
// each file is the only face of its family, and the face drawn is the file named.
//
// Layout (OpenType spec, "Font file" and "name" chapters; all integers big-endian):
//   offset table  sfntVersion u32 (0x00010000 or 'OTTO'), numTables u16, searchRange u16,
//                 entrySelector u16, rangeShift u16                                    12 bytes
//   table record  tag u32, checksum u32, offset u32, length u32 (sorted by tag)     16 bytes each
//   tables        each starting on a 4-byte boundary
//   name table    format u16 = 0, count u16, stringOffset u16, then count records of
//                 platformID u16, encodingID u16, languageID u16, nameID u16, length u16,
//                 offset u16 (from stringOffset), then the strings
//   head table    checkSumAdjustment u32 at offset 8 = 0xB1B0AFBA - sum of the whole file's u32s

const TRUETYPE = 0x00010000;
const OPENTYPE = 0x4f54544f; // 'OTTO'
const NAME = 0x6e616d65; // 'name'
const HEAD = 0x68656164; // 'head'
// Windows platform, Unicode BMP encoding, US English: the names FreeType and fontconfig prefer.
const WINDOWS = 3,
  UNICODE_BMP = 1,
  EN_US = 0x409;
const ID = { family: 1, subfamily: 2, fullName: 4, postScript: 6, typoFamily: 16, typoSubfamily: 17 };

interface TableRecord {
  tag: number;
  checksum: number;
  offset: number;
  length: number;
}

/** The tables of an sfnt file, or undefined when it is not one (a TrueType collection, a bitmap font). */
function tablesOf(buf: Buffer): TableRecord[] | undefined {
  if (buf.length < 12) return undefined;
  const version = buf.readUInt32BE(0);
  if (version !== TRUETYPE && version !== OPENTYPE) return undefined;
  const count = buf.readUInt16BE(4);
  if (12 + count * 16 > buf.length) return undefined;
  const tables: TableRecord[] = [];
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const t = {
      tag: buf.readUInt32BE(at),
      checksum: buf.readUInt32BE(at + 4),
      offset: buf.readUInt32BE(at + 8),
      length: buf.readUInt32BE(at + 12),
    };
    if (t.offset + t.length > buf.length) return undefined;
    tables.push(t);
  }
  return tables;
}

/** A name from the original table (Windows, Unicode), for keeping the style's own word. */
function readName(buf: Buffer, name: TableRecord, nameId: number): string | undefined {
  if (name.length < 6) return undefined;
  const base = name.offset;
  const count = buf.readUInt16BE(base + 2);
  const strings = base + buf.readUInt16BE(base + 4);
  for (let i = 0; i < count && 6 + (i + 1) * 12 <= name.length; i++) {
    const r = base + 6 + i * 12;
    if (buf.readUInt16BE(r) !== WINDOWS || buf.readUInt16BE(r + 6) !== nameId) continue;
    const start = strings + buf.readUInt16BE(r + 10);
    const end = start + buf.readUInt16BE(r + 8);
    if (end > base + name.length) continue;
    return utf16be(buf.subarray(start, end));
  }
  return undefined;
}

const utf16be = (b: Buffer): string => Buffer.from(b).swap16().toString('utf16le');
const toUtf16be = (s: string): Buffer => Buffer.from(s, 'utf16le').swap16();

function nameTable(names: Array<[number, string]>): Buffer {
  const strings = names.map(([, s]) => toUtf16be(s));
  const header = Buffer.alloc(6 + names.length * 12);
  header.writeUInt16BE(0, 0);
  header.writeUInt16BE(names.length, 2);
  header.writeUInt16BE(header.length, 4);
  let offset = 0;
  names.forEach(([id], i) => {
    const r = 6 + i * 12;
    header.writeUInt16BE(WINDOWS, r);
    header.writeUInt16BE(UNICODE_BMP, r + 2);
    header.writeUInt16BE(EN_US, r + 4);
    header.writeUInt16BE(id, r + 6);
    header.writeUInt16BE(strings[i].length, r + 8);
    header.writeUInt16BE(offset, r + 10);
    offset += strings[i].length;
  });
  return Buffer.concat([header, ...strings]);
}

// Through a DataView, without a padded copy: about a third of readUInt32BE's time on a cold start.
function checksum(b: Buffer): number {
  const view = new DataView(b.buffer, b.byteOffset, b.length);
  const whole = b.length & ~3;
  let sum = 0;
  for (let i = 0; i < whole; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  // The last word is padded with zero bytes.
  let last = 0;
  for (let i = whole; i < b.length; i++) last |= b[i] << (24 - 8 * (i - whole));
  return (sum + (last >>> 0)) >>> 0;
}

/**
 * The font file with its family named `family` (ASCII letters and digits) and every other
 * family name gone; the style word (Bold, Oblique...) is kept. Undefined when the bytes are
 * not a single TrueType/OpenType font: the caller registers the file as it is.
 */
export function renameFontFamily(buf: Buffer, family: string): Buffer | undefined {
  const tables = tablesOf(buf);
  const name = tables?.find((t) => t.tag === NAME);
  if (!tables || !name) return undefined;
  const style = readName(buf, name, ID.typoSubfamily) ?? readName(buf, name, ID.subfamily) ?? 'Regular';
  const newName = nameTable([
    [ID.family, family],
    [ID.subfamily, style],
    [ID.fullName, `${family} ${style}`],
    [ID.postScript, `${family}-${style.replace(/[^A-Za-z0-9]/g, '')}`],
  ]);
  // Views of the original tables but the two that change (head gets a zeroed checkSumAdjustment).
  const bodies = tables.map((t) =>
    t.tag === NAME
      ? newName
      : t.tag === HEAD
        ? Buffer.from(buf.subarray(t.offset, t.offset + t.length))
        : buf.subarray(t.offset, t.offset + t.length),
  );
  const head = tables.findIndex((t) => t.tag === HEAD);
  if (head >= 0 && bodies[head].length >= 12) bodies[head].writeUInt32BE(0, 8);

  const dirLength = 12 + tables.length * 16;
  // Not zero-filled: every byte is written below, the padding after each table included.
  const out = Buffer.allocUnsafe(dirLength + bodies.reduce((n, b) => n + Math.ceil(b.length / 4) * 4, 0));
  buf.copy(out, 0, 0, 12);
  let offset = dirLength;
  // The whole file's sum is the directory's plus each table's checksum (tables are padded to
  // whole words with zeros). A table copied as it is keeps the checksum its file gives it: the
  // megabytes of glyphs (Symbola's 3 MB) are not summed at every start, and a wrong original
  // checksum stays as wrong as in the file fontconfig would read otherwise.
  let tablesSum = 0;
  tables.forEach((t, i) => {
    const r = 12 + i * 16;
    const sum = t.tag === NAME || t.tag === HEAD ? checksum(bodies[i]) : t.checksum;
    tablesSum = (tablesSum + sum) >>> 0;
    out.writeUInt32BE(t.tag, r);
    out.writeUInt32BE(sum, r + 4);
    out.writeUInt32BE(offset, r + 8);
    out.writeUInt32BE(bodies[i].length, r + 12);
    bodies[i].copy(out, offset);
    const end = offset + Math.ceil(bodies[i].length / 4) * 4;
    out.fill(0, offset + bodies[i].length, end);
    offset = end;
  });
  const fileSum = (checksum(out.subarray(0, dirLength)) + tablesSum) >>> 0;
  if (head >= 0 && bodies[head].length >= 12)
    out.writeUInt32BE((0xb1b0afba - fileSum) >>> 0, out.readUInt32BE(12 + head * 16 + 8) + 8);
  return out;
}
