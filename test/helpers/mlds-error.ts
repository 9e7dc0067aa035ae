// What a call that must fail failed with: the service's own error, with its code and field.
import assert from 'node:assert/strict';
import { MldsError } from '../../src/errors.js';

/**
 * The MldsError `p` rejects with; fails the test, saying what was expected, when it resolves or rejects with anything
 * else.
 */
export async function mldsErrorOf(p: Promise<unknown>, expected: string): Promise<MldsError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof MldsError, `expected an MldsError, got ${String(err)}`);
    return err;
  }
  assert.fail(`expected ${expected}`);
}
