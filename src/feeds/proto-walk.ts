// The top level of a protobuf message, walked field by field so a large GTFS-realtime
// FeedMessage decodes one FeedEntity at a time with pauses between slices, never as one long
// synchronous call that would hold the frame loop.
//
// Wire format (protobuf encoding): a message is a sequence of fields, each a key varint
// (field number << 3 | wire type) and a value: wire type 0 a varint, 1 eight bytes, 2 a
// varint length and that many bytes (a nested message, string or packed list), 5 four bytes.
// Groups (3, 4) are obsolete and refused. FeedMessage: 1 header (FeedHeader), 2 entity
// (FeedEntity, repeated); any other field number is an extension, skipped.

export class FeedFormatError extends Error {}

/** Reads a varint at `pos`; returns [value, next position]. Values beyond 2^53 are refused. */
function varint(buf: Uint8Array, pos: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= buf.length) throw new FeedFormatError('the message ends inside a varint');
    const b = buf[pos++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      if (value > Number.MAX_SAFE_INTEGER) throw new FeedFormatError('a varint is too large');
      return [value, pos];
    }
    scale *= 128;
  }
  throw new FeedFormatError('a varint is longer than 10 bytes');
}

/**
 * The length-delimited top-level fields of a message, each its number and bytes, in order; other
 * wire types are skipped. Throws FeedFormatError where the bytes break.
 */
function* lengthDelimited(buf: Uint8Array): Generator<[number, Uint8Array]> {
  let pos = 0;
  while (pos < buf.length) {
    let key: number;
    [key, pos] = varint(buf, pos);
    const num = Math.floor(key / 8);
    const wire = key & 7;
    if (num === 0) throw new FeedFormatError('a field number is 0');
    if (wire === 0) [, pos] = varint(buf, pos);
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      let len: number;
      [len, pos] = varint(buf, pos);
      if (pos + len > buf.length) throw new FeedFormatError('a field runs past the end of the message');
      yield [num, buf.subarray(pos, pos + len)];
      pos += len;
    } else throw new FeedFormatError(`wire type ${wire} is not valid here`);
    if (pos > buf.length) throw new FeedFormatError('a field runs past the end of the message');
  }
}

/**
 * The first length-delimited field `num` of a message, as text: the id of an entity the bindings
 * could not decode. Undefined when the bytes break before it.
 */
export function textField(buf: Uint8Array, num: number): string | undefined {
  try {
    for (const [n, bytes] of lengthDelimited(buf)) if (n === num) return Buffer.from(bytes).toString('utf8');
  } catch {
    // The entity breaks before its id: it is counted without one.
  }
  return undefined;
}

/** Calls `field` with each length-delimited top-level field's number and bytes; other wire types are skipped. */
export async function walkFields(
  buf: Uint8Array,
  field: (num: number, bytes: Uint8Array) => void,
  sliceMs = 4,
): Promise<void> {
  let sliceStart = performance.now();
  for (const [num, bytes] of lengthDelimited(buf)) {
    field(num, bytes);
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((r) => setImmediate(r));
      sliceStart = performance.now();
    }
  }
}
