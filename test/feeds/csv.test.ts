import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CsvError, CsvReader, MAX_RECORD_CHARS } from '../../src/feeds/csv.js';

/**
 * Every record of `text` fed in chunks of `size` bytes (so a record, a quote pair, CRLF and a UTF-8 character all get
 * split).
 */
function records(text: string, size: number): string[][] {
  const out: string[][] = [];
  const r = new CsvReader((f) => out.push(f));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) r.write(bytes.subarray(i, i + size));
  r.end();
  return out;
}

test(
  'RFC 4180 CSV in chunks of any size: quotes, doubled quotes, line breaks in a field, CRLF, a BOM, a last ' +
    'line without a break',
  () => {
    const text =
      '\uFEFFstop_id,stop_name,note\r\nS1,"Hauptbahnhof ""Süd"", Ost",\r\n\r\nS2,"two\r\nlines",x\nS3,Łódź ' +
      'Fabryczna,"" \n"S4",,"a,b"';
    const want = [
      ['stop_id', 'stop_name', 'note'],
      ['S1', 'Hauptbahnhof "Süd", Ost', ''],
      ['S2', 'two\r\nlines', 'x'],
      ['S3', 'Łódź Fabryczna', ' '],
      ['S4', '', 'a,b'],
    ];
    for (const size of [1, 2, 3, 5, 7, 64, 4096]) assert.deepEqual(records(text, size), want, `chunks of ${size}`);
  },
);

test('a record longer than the cap is refused, not held', () => {
  assert.throws(() => records(`a,"${'x'.repeat(MAX_RECORD_CHARS)}"\n`, 1000), CsvError);
});
