// protocol "ascii": the sensor sends one lux reading per line, at its own pace:
//   "1234\n", "87.5\r\n", "420 lx\n"
// A reading is the newest complete line; a line that is not a number is a malformed reading.
import type { LinkDeps, LuxLink } from './lux-link.js';
import { SerialReader } from './serial-reader.js';

const LINE = /^\s*(\d+(?:\.\d+)?)\s*(?:lx|lux)?\s*$/i;

export function parseLuxLine(line: string): number | undefined {
  const m = LINE.exec(line);
  return m ? Number(m[1]) : undefined;
}

export class AsciiLink implements LuxLink {
  private readonly serial: SerialReader;
  readonly where: string;

  constructor(path: string, baudRate: number, deps: LinkDeps) {
    this.serial = new SerialReader(path, baudRate, deps);
    this.where = path;
  }

  open(): Promise<void> {
    return this.serial.open();
  }

  onLost(fn: (err: Error) => void): void {
    this.serial.onLost(fn);
  }

  async read(timeoutMs: number): Promise<number> {
    const hasLine = () => this.serial.received.includes(0x0a);
    if (!hasLine()) await this.serial.until(hasLine, timeoutMs, 'no line');
    const text = this.serial.received.toString('latin1');
    const end = text.lastIndexOf('\n');
    this.serial.consume(end + 1);
    const lines = text
      .slice(0, end)
      .split('\n')
      .map((l) => l.replace(/\r$/, ''))
      .filter((l) => l.trim() !== '');
    const newest = lines.at(-1) ?? '';
    const lux = parseLuxLine(newest);
    if (lux === undefined) throw new Error(`not a lux reading: ${JSON.stringify(newest.slice(0, 40))}`);
    return lux;
  }

  close(): Promise<void> {
    return this.serial.close();
  }
}
