import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyJournal, checkSavedState, emptyState, journalLine } from '../../src/control/saved-state.js';

const level = {
  priority: 5,
  query: 'id=a&layout=l&t=x&priority=5&expires=60',
  at: 1000,
  expiresAt: 61_000,
  source: 'http',
};

test(
  "saved levels: journal lines set and clear a display's " + 'levels; entries of the wrong form are dropped and named',
  () => {
    const st = emptyState();
    const text =
      journalLine('l', 'a', [level]) +
      journalLine('l', 'b', [{ ...level, inumber: 'n' }]) +
      journalLine('l', 'b', []) +
      '["l","c",[{"priority":0,"query":"q","at":1,"expiresAt":2}]]\n';
    assert.equal(applyJournal(st, text), 1, 'a level at priority 0 is not a saved level');
    assert.deepEqual(st.layers.a, [level]);
    assert.ok(!('b' in st.layers), 'an empty list clears the display');
    const checked = checkSavedState({
      lastRequest: {},
      layers: { a: [level], b: [{ ...level, expiresAt: 'soon' }], c: 'x' },
    })!;
    assert.deepEqual(checked.state.layers.a, [level]);
    assert.deepEqual(checked.dropped, ['/layers/b', '/layers/c']);
    assert.deepEqual(
      Object.keys(checkSavedState({ lastRequest: {} })!.state.layers),
      [],
      'a state file from before levels loads',
    );
  },
);
