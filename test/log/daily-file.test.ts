import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DailyFile, dayOf } from '../../src/log/daily-file.js';
import { until } from '../helpers/service.js';
import { mountTmpfs, sub, tmpfsUnavailable } from '../helpers/tmpfs.js';

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();
const line = (msg: string) => `${JSON.stringify({ msg })}\n`;

test('rotated files older than logRetentionDays are removed at start and at each rotation', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-logs-'));
  try {
    for (const f of [
      'mlds-2026-03-06.log',
      'mlds-2026-03-05.2.log',
      'mlds-2026-03-07.log',
      'mlds-2026-03-09.log',
      'mlds-2026-03-09.2.log',
      'notes.txt',
      'mlds-x.log',
    ]) {
      writeFileSync(path.join(dir, f), 'old\n');
    }
    let now = at(2026, 3, 10);
    const file = new DailyFile({ dir, retentionDays: 3, now: () => now });
    // Today is the 10th: the 7th is three days back and stays, the 6th and before go.
    assert.deepEqual(readdirSync(dir).sort(), [
      'mlds-2026-03-07.log',
      'mlds-2026-03-09.2.log',
      'mlds-2026-03-09.log',
      'mlds-x.log',
      'notes.txt',
    ]);

    file.write(line('on the 10th'));
    await until(() => existsSync(file.file) && readFileSync(file.file, 'utf8').includes('on the 10th'));
    now = at(2026, 3, 11, 0);
    file.write(line('on the 11th'));
    await file.close();

    assert.deepEqual(
      readdirSync(dir).sort(),
      ['mlds-2026-03-09.2.log', 'mlds-2026-03-09.log', 'mlds-2026-03-10.log', 'mlds-x.log', 'mlds.log', 'notes.txt'],
      'the 10th rotated to its own file, the 7th past the retention removed',
    );
    assert.equal(readFileSync(path.join(dir, 'mlds-2026-03-10.log'), 'utf8'), line('on the 10th'));
    assert.equal(readFileSync(file.file, 'utf8'), line('on the 11th'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an mlds.log left by an earlier run on an earlier day is rotated to that day at start', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-logs-'));
  try {
    const yesterday = Date.now() - 86_400_000;
    writeFileSync(path.join(dir, 'mlds.log'), line('yesterday'));
    const { utimesSync } = await import('node:fs');
    utimesSync(path.join(dir, 'mlds.log'), yesterday / 1000, yesterday / 1000);
    const file = new DailyFile({ dir, retentionDays: 31 });
    file.write(line('today'));
    await file.close();
    assert.equal(readFileSync(path.join(dir, `mlds-${dayOf(yesterday)}.log`), 'utf8'), line('yesterday'));
    assert.equal(readFileSync(file.file, 'utf8'), line('today'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'a full disk: lines wait in memory up to the bound, the rest are dropped and counted; writing resumes when ' +
    'space returns',
  { skip: tmpfsUnavailable() },
  async () => {
    const fs = mountTmpfs('1m');
    try {
      const changes: string[] = [];
      const file = new DailyFile({
        dir: sub(fs, 'logs'),
        retentionDays: 31,
        maxPendingChars: 5000,
        retryMs: 50,
        onChange: (p, r) => changes.push(p ? 'failing' : `recovered, ${r!.dropped} dropped`),
      });
      file.write(line('before'));
      await until(() => existsSync(file.file) && readFileSync(file.file, 'utf8').length > 0);
      fs.fill();
      const filler = 'x'.repeat(90);
      // The file's last page still has room for a few lines; then the disk is full.
      for (let i = 0; i < 300; i++) {
        file.write(line(`${i} ${filler}`));
        if (i % 20 === 0) await new Promise((r) => setImmediate(r));
      }
      await until(() => file.problem() !== undefined, 3000, 'the problem');
      const p = file.problem()!;
      assert.match(p.message, /ENOSPC/);
      const dropped = Number(/(\d+) line\(s\) dropped/.exec(p.message)![1]);
      assert.ok(dropped > 200, p.message);
      assert.deepEqual(changes, ['failing']);

      fs.free();
      await until(() => file.problem() === undefined, 3000, 'writing to resume');
      file.write(line('after'));
      await file.close();
      const text = readFileSync(file.file, 'utf8');
      assert.ok(text.startsWith(line('before')));
      assert.ok(
        text.endsWith(`${line('299 ' + filler)}${line('after')}`),
        'the newest waiting lines are kept, in order',
      );
      assert.ok(
        text.split('\n').every((l) => l === '' || JSON.parse(l)),
        'no line is cut',
      );
      assert.deepEqual(changes, ['failing', `recovered, ${dropped} dropped`]);
    } finally {
      fs.cleanup();
    }
  },
);
