import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TurnBatch } from '../../src/control/turn-batch.js';

const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

test('the first line of a turn is written at once; the rest of the turn goes out in one write at its end', async () => {
  const writes: string[] = [];
  const batch = new TurnBatch((text) => {
    writes.push(text);
    return undefined;
  });
  assert.equal(batch.add('a\n'), undefined, 'the first line is in the kernel when add() returns');
  assert.deepEqual(writes, ['a\n']);
  const b = batch.add('b\n');
  const c = batch.add('c\n');
  assert.ok(b && b === c, 'one promise for the lines of the turn');
  let stored = false;
  void b.then(() => {
    stored = true;
  });
  assert.deepEqual(writes, ['a\n'], 'waiting lines are not written yet');
  await turnEnd();
  assert.deepEqual(writes, ['a\n', 'b\nc\n']);
  await b;
  assert.ok(stored);
  // A new turn: its first line is written at once again.
  assert.equal(batch.add('d\n'), undefined);
  assert.deepEqual(writes, ['a\n', 'b\nc\n', 'd\n']);
});

test('drain() writes the waiting lines before another line, so the journal keeps their order', async () => {
  const writes: string[] = [];
  const batch = new TurnBatch((text) => {
    writes.push(text);
    return undefined;
  });
  batch.add('1\n');
  const waiting = batch.add('2\n');
  batch.drain();
  writes.push('other\n');
  await waiting;
  await turnEnd();
  assert.deepEqual(writes, ['1\n', '2\n', 'other\n'], 'nothing written twice, nothing after its successor');
});

test('commands one at a time (a turn each) are each written at once, never waiting', async () => {
  const writes: string[] = [];
  const batch = new TurnBatch((text) => {
    writes.push(text);
    return undefined;
  });
  for (let i = 0; i < 5; i++) {
    assert.equal(batch.add(`${i}\n`), undefined, `command ${i}`);
    await turnEnd();
  }
  assert.deepEqual(writes, ['0\n', '1\n', '2\n', '3\n', '4\n']);
});

test(
  'a line that cannot be written is taken back: at once for the first of a turn, newest first for a turn ' +
    'written together',
  async () => {
    const full = new Error('ENOSPC: no space left on device');
    let fail = true;
    const undone: string[] = [];
    const batch = new TurnBatch(() => (fail ? full : undefined));
    const first = batch.add('a\n', () => undone.push('a'));
    assert.ok(first, 'a failed first line answers a promise');
    assert.deepEqual(undone, ['a'], 'taken back before add() returns');
    await assert.rejects(first, full);
    const b = batch.add('b\n', () => undone.push('b'));
    const c = batch.add('c\n', () => undone.push('c'));
    assert.deepEqual(undone, ['a'], 'waiting lines are not taken back before their write');
    await assert.rejects(b!, full);
    assert.deepEqual(undone, ['a', 'c', 'b'], 'the later change of the turn goes first');
    await assert.rejects(c!, full);
    fail = false;
    await turnEnd();
    assert.equal(
      batch.add('d\n', () => undone.push('d')),
      undefined,
      'written again once the journal takes lines',
    );
    assert.deepEqual(undone, ['a', 'c', 'b']);
  },
);
