// protocol "modbus-rtu": one holding register (function 0x03) read over a serial line.
//   request   unit, 0x03, register hi, register lo, 0x00, 0x01, CRC lo, CRC hi     (8 bytes)
//   answer    unit, 0x03, 0x02, value hi, value lo, CRC lo, CRC hi                 (7 bytes)
//   exception unit, 0x83, exception code, CRC lo, CRC hi                           (5 bytes)
// CRC-16/MODBUS: initial 0xFFFF, reflected polynomial 0xA001, sent low byte first.
// The register holds the light level in lux, 0..65535.
import type { LinkDeps, LuxLink } from './lux-link.js';
import { SerialReader } from './serial-reader.js';

const READ_HOLDING = 0x03;
const EXCEPTIONS: Record<number, string> = {
  1: 'illegal function',
  2: 'illegal data address',
  3: 'illegal data value',
  4: 'slave device failure',
  6: 'slave device busy',
};

export function crc16(bytes: Uint8Array, length = bytes.length): number {
  let crc = 0xffff;
  for (let i = 0; i < length; i++) {
    crc ^= bytes[i];
    for (let b = 0; b < 8; b++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

export function readRequest(unit: number, register: number): Buffer {
  const b = Buffer.from([unit, READ_HOLDING, register >> 8, register & 0xff, 0x00, 0x01, 0, 0]);
  b.writeUInt16LE(crc16(b, 6), 6);
  return b;
}

/** How many bytes the answer in `b` has, once its first two bytes are known. */
export function answerLength(b: Uint8Array): number | undefined {
  if (b.length < 2) return undefined;
  return b[1] & 0x80 ? 5 : 7;
}

/** The register value from a complete answer; throws on a wrong unit, an exception or a bad CRC. */
export function parseAnswer(b: Uint8Array, unit: number): number {
  const n = answerLength(b)!;
  if (crc16(b, n - 2) !== (b[n - 2] | (b[n - 1] << 8))) throw new Error('answer with a bad CRC');
  if (b[0] !== unit) throw new Error(`answer from unit ${b[0]}, not ${unit}`);
  if (b[1] === (READ_HOLDING | 0x80)) throw new Error(`Modbus exception ${b[2]} (${EXCEPTIONS[b[2]] ?? 'unknown'})`);
  if (b[1] !== READ_HOLDING || b[2] !== 2) throw new Error(`unexpected answer: function ${b[1]}, ${b[2]} bytes`);
  return (b[3] << 8) | b[4];
}

export class RtuLink implements LuxLink {
  private readonly serial: SerialReader;
  readonly where: string;

  constructor(
    path: string,
    baudRate: number,
    private readonly unit: number,
    private readonly register: number,
    deps: LinkDeps,
  ) {
    this.serial = new SerialReader(path, baudRate, deps);
    this.where = `${path} unit ${unit} register ${register}`;
  }

  open(): Promise<void> {
    return this.serial.open();
  }

  onLost(fn: (err: Error) => void): void {
    this.serial.onLost(fn);
  }

  async read(timeoutMs: number): Promise<number> {
    // A late answer to an earlier request must not be taken for this one.
    this.serial.consume();
    await this.serial.write(readRequest(this.unit, this.register));
    const complete = () => {
      const n = answerLength(this.serial.received);
      return n !== undefined && this.serial.received.length >= n;
    };
    await this.serial.until(complete, timeoutMs, `no answer from unit ${this.unit}`);
    const answer = Buffer.from(this.serial.received);
    this.serial.consume();
    return parseAnswer(answer, this.unit);
  }

  close(): Promise<void> {
    return this.serial.close();
  }
}
