// A streaming reader of CSV as RFC 4180 writes it (and GTFS uses it): fields separated by
// commas, records by CRLF or LF, a field in double quotes may hold commas, line breaks and
// doubled quotes (""). A UTF-8 byte order mark before the header is dropped. Records arrive
// one by one as the text does, so a file of any size is read in the memory of one record,
// which is capped.
import { StringDecoder } from 'node:string_decoder';

export const MAX_RECORD_CHARS = 64 * 1024;

export class CsvError extends Error {}

export class CsvReader {
  private readonly decoder = new StringDecoder('utf8');
  private field = '';
  private fields: string[] = [];
  private quoted = false;
  /** In a quoted field, the last character was a quote (the end of it, or the first of a pair). */
  private quoteSeen = false;
  private size = 0;
  private first = true;
  private lastWasCr = false;

  constructor(private readonly onRecord: (fields: string[]) => void) {}

  write(chunk: Buffer): void {
    this.text(this.decoder.write(chunk));
  }

  end(): void {
    this.text(this.decoder.end());
    if (this.field !== '' || this.fields.length || this.quoted) this.record();
  }

  private text(s: string): void {
    if (this.first && s.length) {
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      this.first = false;
    }
    let start = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === 34) {
            start = i;
            continue;
          } // "" inside quotes: one quote (kept from `start`)
          this.quoted = false; // the closing quote: fall through to the delimiters below
        } else {
          if (c === 34) {
            this.take(s, start, i);
            this.quoteSeen = true;
            start = i + 1;
          }
          continue;
        }
      }
      if (c === 44) {
        this.take(s, start, i);
        this.push();
        start = i + 1;
      } else if (c === 10 || c === 13) {
        this.take(s, start, i);
        start = i + 1;
        if (c === 10 && this.lastWasCr) {
          this.lastWasCr = false;
          continue;
        }
        this.lastWasCr = c === 13;
        this.record();
        continue;
      } else if (c === 34 && this.field === '' && start === i) {
        this.quoted = true;
        start = i + 1;
      }
      this.lastWasCr = false;
    }
    this.take(s, start, s.length);
  }

  private take(s: string, from: number, to: number): void {
    if (to <= from) return;
    this.size += to - from;
    if (this.size > MAX_RECORD_CHARS) throw new CsvError(`a record is longer than ${MAX_RECORD_CHARS} characters`);
    this.field += s.slice(from, to);
  }

  private push(): void {
    this.fields.push(this.field);
    this.field = '';
  }

  private record(): void {
    this.push();
    const fields = this.fields;
    this.fields = [];
    this.size = 0;
    this.quoted = false;
    this.quoteSeen = false;
    if (fields.length === 1 && fields[0] === '') return; // a blank line
    this.onRecord(fields);
  }
}

/**
 * A field's own copy. A field is a slice of the text chunk it was read from, and V8 keeps the
 * whole chunk (16 KB) alive through a slice of 13 characters or more: 12,000 trip ids kept from
 * a large stop_times.txt held 140 MB. What outlives its record is copied.
 */
export function own(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8');
}

/** Reads records by column name: the first record is the header. */
export function byHeader(onRow: (get: (column: string) => string) => void): (fields: string[]) => void {
  let index: Map<string, number> | undefined;
  let row: string[] = [];
  const get = (column: string) => {
    const i = index!.get(column);
    return i === undefined ? '' : (row[i] ?? '').trim();
  };
  return (fields) => {
    if (!index) {
      index = new Map(fields.map((f, i) => [f.trim(), i]));
      return;
    }
    row = fields;
    onRow(get);
  };
}
