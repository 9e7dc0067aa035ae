import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseQuery } from '../../src/control/query.js';
import { MldsError } from '../../src/errors.js';

const value = (raw: string) => parseQuery(`a=${raw}`)[0].value;

test('percent-decoding: UTF-8 of any length, + as space, %2B and %26 literal', () => {
  assert.equal(value('%C5%81%C3%B3d%C5%BA'), 'Łódź');
  assert.equal(value('%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0'), 'Москва');
  assert.equal(value('%F0%9F%9A%8C+%E2%86%92+%2B1%26more'), '🚌 → +1&more');
  assert.equal(value('%c3%a9'), 'é', 'lower-case hex');
  assert.equal(value('Łódź 🚌'), 'Łódź 🚌', 'raw non-ASCII characters stand for themselves');
  assert.deepEqual(parseQuery('a=1&&b&c='), [
    { name: 'a', value: '1' },
    { name: 'b', value: '' },
    { name: 'c', value: '' },
  ]);
  assert.deepEqual(parseQuery('fontColor%5Bx%5D=1_2_3'), [{ name: 'fontColor[x]', value: '1_2_3' }]);
});

test('bad percent-encoding and invalid UTF-8 are refused, naming the field', () => {
  for (const raw of ['%', '%4', '%4G', '%zz', '100%', '%C3%28', '%C0%AF', '%ED%A0%80', '%F8%88%80%80%80', '%FF']) {
    assert.throws(
      () => value(raw),
      (err: MldsError) => err.code === 'MLDS_BAD_ENCODING' && err.field === 'a',
      raw,
    );
  }
  assert.throws(
    () => parseQuery('b%ZZ=1'),
    (err: MldsError) => err.code === 'MLDS_BAD_ENCODING',
  );
});

/** The strict decoder spelled out: `%XX` and ASCII to bytes, + to a space, then TextDecoder in fatal mode. */
function reference(raw: string): string | 'refused' {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '%') {
      if (!/^[0-9a-fA-F]{2}$/.test(raw.slice(i + 1, i + 3))) return 'refused';
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(raw[i] === '+' ? 0x20 : raw.charCodeAt(i));
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return 'refused';
  }
}

test(
  'percent-encoded bytes decode exactly as the strict UTF-8 ' + 'decoder does (byte order mark, overlongs, surrogates)',
  () => {
    const escape = (bytes: number[]) => bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const decoded = (raw: string): string => {
      try {
        return value(raw);
      } catch {
        return 'refused';
      }
    };
    for (const raw of [
      '%EF%BB%BFx',
      '%EF%BB%BF%EF%BB%BF',
      'a%EF%BB%BF',
      '%ef%bf%bd',
      '%F4%8F%BF%BF',
      '%F4%90%80%80',
      '%E0%80%AF',
      '+%2B+',
      '%C3%A9%C3',
    ]) {
      assert.equal(decoded(raw), reference(raw), raw);
    }
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0xc3, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0x80, 0xbf)),
          { maxLength: 12 },
        ),
        fc.boolean(),
        (bytes, plus) => {
          const raw = escape(bytes) + (plus ? '+x' : '');
          assert.equal(decoded(raw), reference(raw), raw);
        },
      ),
      { numRuns: 20_000 },
    );
  },
);
