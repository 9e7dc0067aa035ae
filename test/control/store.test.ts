import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { StateStore } from '../../src/control/store.js';

test('a burst of changes becomes one atomic write of the newest state', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-store-'));
  try {
    const store = new StateStore(dir);
    await store.load();
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < 20; i++) writes.push(store.setLastRequest('d', { query: `id=d&layout=l&n=${i}`, at: i, source: 'http' }));
    assert.equal(existsSync(store.file), false, 'nothing written yet: the burst is still being collected');
    await Promise.all(writes);
    const saved = JSON.parse(readFileSync(store.file, 'utf8'));
    assert.equal(saved.lastRequest.d.query, 'id=d&layout=l&n=19');
    assert.deepEqual(readdirSync(dir), ['state.json'], 'no temporary file left');

    store.setLastFeedback('d', { confirm: 1, inumber: '7' }).catch(() => {});
    await store.flush();
    assert.deepEqual(JSON.parse(readFileSync(store.file, 'utf8')).lastFeedback.d, { confirm: 1, inumber: '7' });

    const again = new StateStore(dir);
    assert.equal((await again.load()).lastRequest.d.at, 19);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
