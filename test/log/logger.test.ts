import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createLogger } from '../../src/log/logger.js';

const daysAgo = (n: number) => {
  const d = new Date();
  d.setDate(d.getDate() - n);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

test('the service logger removes rotated files older than logRetentionDays and keeps the rest', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-logs-'));
  try {
    const old = [`mlds-${daysAgo(40)}.log`, `mlds-${daysAgo(8)}.log`, `mlds-${daysAgo(8)}.2.log`];
    const kept = [`mlds-${daysAgo(7)}.log`, `mlds-${daysAgo(1)}.log`, 'other.txt'];
    for (const f of [...old, ...kept]) writeFileSync(path.join(dir, f), '{}\n');
    const { log, close } = createLogger({ dir, retentionDays: 7, stdout: false });
    log.info({}, 'hello');
    await close();
    assert.deepEqual(readdirSync(dir).sort(), [...kept, 'mlds.log'].sort());
    assert.match(readFileSync(path.join(dir, 'mlds.log'), 'utf8'), /"msg":"hello"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
