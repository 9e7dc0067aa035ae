import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mock, test } from 'node:test';
import { pino } from 'pino';
import { createLogger, isoTime } from '../../src/log/logger.js';

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

test("the time field is pino's isoTime, though its date part is made once a second", () => {
  const times = [
    0, 5, 59, 999, 1000, 1001, 1_790_000_000_000, 1_790_000_000_009, 1_790_000_000_010, 1_790_000_000_999,
    1_790_000_001_000, 1_789_999_999_999, 1_790_000_000_100,
  ];
  const now = mock.method(Date, 'now', () => 0);
  try {
    for (const t of times) {
      now.mock.mockImplementation(() => t);
      assert.equal(isoTime(), pino.stdTimeFunctions.isoTime(), String(t));
    }
  } finally {
    now.mock.restore();
  }
});
