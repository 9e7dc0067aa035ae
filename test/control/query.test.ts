import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../../src/control/query.js';
import { MldsError } from '../../src/errors.js';

const value = (raw: string) => parseQuery(`a=${raw}`)[0].value;

test('percent-decoding: UTF-8 of any length, + as space, %2B and %26 literal', () => {
  assert.equal(value('%C5%81%C3%B3d%C5%BA'), 'Łódź');
  assert.equal(value('%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0'), 'Москва');
  assert.equal(value('%F0%9F%9A%8C+%E2%86%92+%2B1%26more'), '🚌 → +1&more');
  assert.equal(value('%c3%a9'), 'é', 'lower-case hex');
  assert.equal(value('Łódź 🚌'), 'Łódź 🚌', 'raw non-ASCII characters stand for themselves');
  assert.deepEqual(parseQuery('a=1&&b&c='), [{ name: 'a', value: '1' }, { name: 'b', value: '' }, { name: 'c', value: '' }]);
  assert.deepEqual(parseQuery('fontColor%5Bx%5D=1_2_3'), [{ name: 'fontColor[x]', value: '1_2_3' }]);
});

test('bad percent-encoding and invalid UTF-8 are refused, naming the field', () => {
  for (const raw of ['%', '%4', '%4G', '%zz', '100%', '%C3%28', '%C0%AF', '%ED%A0%80', '%F8%88%80%80%80', '%FF']) {
    assert.throws(() => value(raw), (err: MldsError) => err.code === 'MLDS_BAD_ENCODING' && err.field === 'a', raw);
  }
  assert.throws(() => parseQuery('b%ZZ=1'), (err: MldsError) => err.code === 'MLDS_BAD_ENCODING');
});
