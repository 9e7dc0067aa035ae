import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DailyFile } from '../../src/log/daily-file.js';
import { ShownLog } from '../../src/log/shown-log.js';
import { until } from '../helpers/wait.js';

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();

test(
  'a named daily file rotates and prunes its own files ' + 'only, and batchMs holds lines until then or flush()',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-shown-'));
    try {
      for (const f of ['shown-2026-03-01.log', 'shown-2026-03-09.log', 'mlds-2026-03-01.log'])
        writeFileSync(path.join(dir, f), 'old\n');
      const file = new DailyFile({ dir, retentionDays: 3, name: 'shown', batchMs: 60_000, now: () => at(2026, 3, 10) });
      assert.deepEqual(
        readdirSync(dir).sort(),
        ['mlds-2026-03-01.log', 'shown-2026-03-09.log'],
        'only its own old file pruned',
      );
      assert.equal(file.file, path.join(dir, 'shown.log'));
      file.write('{"a":1}\n');
      // the passing of time is what is tested: nothing is written within 50 ms of a 60 s batch.
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(!readdirSync(dir).includes('shown.log'), 'held for the batch');
      await file.flush();
      assert.equal(readFileSync(file.file, 'utf8'), '{"a":1}\n');
      // 64 KiB waiting goes out without waiting for the batch.
      const big = `${JSON.stringify({ pad: 'x'.repeat(70_000) })}\n`;
      file.write(big);
      await until(() => readFileSync(file.file, 'utf8').length >= 8 + big.length, 5000, 'the 64 KiB written');
      assert.equal(readFileSync(file.file, 'utf8').length, 8 + big.length);
      await file.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'history reads shown.log and the rotated files newest ' + 'first, keeps to one display, and fills in each end',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-shown-'));
    const e = (id: string, area: string, layout: string, start: string) =>
      JSON.stringify({
        id,
        layout,
        area,
        value: area,
        content: 'request',
        source: 'http',
        inumber: null,
        priority: 0,
        start,
        end: null,
      }) + '\n';
    try {
      writeFileSync(
        path.join(dir, 'shown-2026-03-08.log'),
        e('a', 'x', 'L', '2026-03-08T10:00:00.000Z') + e('b', 'x', 'L', '2026-03-08T10:30:00.000Z'),
      );
      writeFileSync(path.join(dir, 'shown-2026-03-09.log'), e('a', 'y', 'L', '2026-03-09T10:00:00.000Z'));
      writeFileSync(path.join(dir, 'shown-2026-03-09.2.log'), e('a', 'x', 'M', '2026-03-09T11:00:00.000Z'));
      // Lines longer than the 64 KiB read chunk come back whole.
      const long = 'é'.repeat(40_000);
      writeFileSync(
        path.join(dir, 'shown.log'),
        e('a', 'x', 'L', '2026-03-10T09:00:00.000Z').replace('"value":"x"', `"value":"${long}"`) + 'not json\n',
      );
      const log = new ShownLog(dir, 3650);
      const h = await log.history('a', undefined, 10);
      assert.deepEqual(
        h.entries.map((x) => [x.layout, x.area, x.start, x.end]),
        [
          ['L', 'x', '2026-03-10T09:00:00.000Z', null],
          ['M', 'x', '2026-03-09T11:00:00.000Z', '2026-03-10T09:00:00.000Z'],
          ['L', 'y', '2026-03-09T10:00:00.000Z', '2026-03-09T11:00:00.000Z'],
          ['L', 'x', '2026-03-08T10:00:00.000Z', '2026-03-09T11:00:00.000Z'],
        ],
      );
      assert.equal(h.entries[0].value, long);
      assert.equal(h.complete, true);
      assert.equal((await log.history('a', Date.parse('2026-03-09T10:00:00Z'), 10)).entries.length, 3);
      assert.equal((await log.history('a', undefined, 2)).entries.length, 2);
      assert.deepEqual(
        (await log.history('b', undefined, 10)).entries.map((x) => x.id),
        ['b'],
      );
      await log.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
