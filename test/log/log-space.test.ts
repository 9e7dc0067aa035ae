import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DailyFile } from '../../src/log/daily-file.js';
import { LogSpace } from '../../src/log/log-space.js';
import { until } from '../helpers/service.js';
import { mountTmpfs, sub, tmpfsUnavailable } from '../helpers/tmpfs.js';

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();
const LOGS = /^(mlds|shown)(-\d{4}-\d{2}-\d{2}(\.\d+)?)?\.log$/;
const logBytes = (dir: string) =>
  readdirSync(dir)
    .filter((f) => LOGS.test(f))
    .reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);

/**
 * The numbers of the lines `name`'s files hold, oldest file first (rotated by day and index, then the current file).
 */
function lineNumbers(dir: string, name: string): number[] {
  const rotated = readdirSync(dir)
    .map((f) => new RegExp(`^${name}-(\\d{4}-\\d{2}-\\d{2})(?:\\.(\\d+))?\\.log$`).exec(f))
    .filter((m) => m !== null)
    .sort((a, b) => (a[1] === b[1] ? Number(a[2] ?? 1) - Number(b[2] ?? 1) : a[1] < b[1] ? -1 : 1))
    .map((m) => m[0]);
  return [...rotated, `${name}.log`]
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((l) => (JSON.parse(l) as { n?: number }).n)
    .filter((n) => n !== undefined);
}

test(
  'mlds.log and shown.log keep within logMaxMB together: ' + 'rotated by size, the oldest rotated files dropped first',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-logs-'));
    try {
      // Earlier days' files, inside the retention: the cap drops them before any of today's.
      for (const f of ['mlds-2026-03-08.log', 'shown-2026-03-09.log', 'mlds-2026-03-09.log'])
        writeFileSync(path.join(dir, f), `${JSON.stringify({ old: 'x'.repeat(10_000) })}\n`);
      const now = () => at(2026, 3, 10);
      const space = new LogSpace({ dir, maxBytes: 64 * 1024, names: ['mlds', 'shown'], now });
      assert.equal(space.segmentBytes, 8 * 1024);
      const mlds = new DailyFile({ dir, retentionDays: 31, space, now });
      const shown = new DailyFile({ dir, retentionDays: 31, name: 'shown', space, now });
      assert.equal(readdirSync(dir).length, 3, 'within the cap at start: nothing removed');
      const pad = 'y'.repeat(80);
      let biggest = 0;
      for (let n = 0; n < 3000; n++) {
        mlds.write(`${JSON.stringify({ n, pad })}\n`);
        if (n % 2 === 0) shown.write(`${JSON.stringify({ n, pad })}\n`);
        if (n % 25 === 24) {
          await mlds.flush();
          await shown.flush();
          biggest = Math.max(biggest, logBytes(dir));
        }
      }
      await mlds.close();
      await shown.close();
      assert.ok(biggest <= 64 * 1024, `at most 64 KB of logs at any time: ${biggest}`);
      assert.ok(logBytes(dir) > 40 * 1024, `the cap is used, not emptied: ${logBytes(dir)}`);
      const files = readdirSync(dir);
      for (const f of ['mlds-2026-03-08.log', 'shown-2026-03-09.log', 'mlds-2026-03-09.log'])
        assert.ok(!files.includes(f), `${f}, the oldest, dropped first`);
      assert.ok(
        files.some((f) => /^mlds-2026-03-10\.\d+\.log$/.test(f)),
        `rotated by size: ${files}`,
      );
      assert.equal(mlds.problem(), undefined);
      // What stays is the newest lines, in order, none missing in between.
      for (const [name, last, step] of [
        ['mlds', 2999, 1],
        ['shown', 2998, 2],
      ] as const) {
        const kept = lineNumbers(dir, name);
        assert.equal(kept.at(-1), last, `${name}: the newest line is kept`);
        assert.ok(kept.length > 50, `${name}: ${kept.length} lines kept`);
        kept.forEach((n, i) => {
          if (i) assert.equal(n, kept[i - 1] + step, `${name}: no gap at ${n}`);
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'a flood of service log lines never takes the history: mlds.log gives up its rotated files first; a busy ' +
    'shown.log gives up its own once past half the cap',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-logs-'));
    try {
      const now = () => at(2026, 3, 10);
      const space = new LogSpace({ dir, maxBytes: 64 * 1024, names: ['mlds', 'shown'], now });
      const mlds = new DailyFile({ dir, retentionDays: 31, space, now });
      const shown = new DailyFile({ dir, retentionDays: 31, name: 'shown', space, now });
      const pad = 'h'.repeat(80);
      // 200 changes shown (20 KB: two rotated files and the current one), then 3,000 log lines (300 KB).
      for (let n = 0; n < 200; n++) {
        shown.write(`${JSON.stringify({ n, pad })}\n`);
        if (n % 10 === 9) await shown.flush();
      }
      assert.ok(
        readdirSync(dir).some((f) => /^shown-2026-03-10\.log$/.test(f)),
        'shown.log rotated',
      );
      for (let n = 0; n < 3000; n++) {
        mlds.write(`${JSON.stringify({ n, pad })}\n`);
        if (n % 25 === 24) {
          await mlds.flush();
          assert.ok(logBytes(dir) <= 64 * 1024, `at most 64 KB of logs: ${logBytes(dir)}`);
        }
      }
      await mlds.flush();
      assert.deepEqual(
        lineNumbers(dir, 'shown'),
        Array.from({ length: 200 }, (_, n) => n),
        'every change shown is kept',
      );
      const mldsKept = lineNumbers(dir, 'mlds');
      assert.equal(mldsKept.at(-1), 2999);
      assert.ok(mldsKept.length < 3000, 'the service log gave up its oldest lines');

      // Now the history floods (3,000 changes, 300 KB): it gives up its own oldest once over half
      // the cap, and the service log keeps what it had.
      for (let n = 200; n < 3200; n++) {
        shown.write(`${JSON.stringify({ n, pad })}\n`);
        if (n % 25 === 24) await shown.flush();
      }
      await shown.close();
      await mlds.close();
      assert.ok(logBytes(dir) <= 64 * 1024, `at most 64 KB of logs: ${logBytes(dir)}`);
      const shownKept = lineNumbers(dir, 'shown');
      assert.equal(shownKept.at(-1), 3199);
      assert.ok(shownKept[0] > 0, 'the oldest changes went');
      assert.ok(shownKept.length > 250, `the history keeps about half the cap: ${shownKept.length} lines`);
      assert.deepEqual(
        lineNumbers(dir, 'mlds').slice(-100),
        mldsKept.slice(-100),
        "the service log's newest lines are still there",
      );
      assert.ok(
        lineNumbers(dir, 'mlds').length > 150,
        `the service log keeps a part of the cap: ${lineNumbers(dir, 'mlds').length} lines`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'logs sharing a filesystem with the state stop writing before it has under 1 MB free, and resume when space returns',
  { skip: tmpfsUnavailable() },
  async () => {
    const fs = mountTmpfs('3m');
    try {
      const stateDir = sub(fs, 'state');
      const logDir = sub(fs, 'logs');
      const ballast = path.join(fs.dir, 'ballast');
      writeFileSync(ballast, Buffer.alloc(1 << 20));
      const free = () => {
        const s = statfsSync(fs.dir);
        return s.bavail * s.bsize;
      };
      const changes: string[] = [];
      // The cap is far above the disk: only the state's reserve stops the log.
      const space = new LogSpace({ dir: logDir, maxBytes: 64 << 20, names: ['mlds'], stateDir });
      const file = new DailyFile({
        dir: logDir,
        retentionDays: 31,
        retryMs: 50,
        maxPendingChars: 10_000,
        space,
        onChange: (p) => changes.push(p ? 'stopped' : 'resumed'),
      });
      const pad = 'z'.repeat(1000);
      for (let n = 0; n < 5000 && !file.problem(); n++) {
        file.write(`${JSON.stringify({ n, pad })}\n`);
        if (n % 10 === 9) await file.flush();
      }
      await until(() => file.problem() !== undefined, 3000, 'the log to stop');
      assert.match(
        file.problem()!.message,
        /mlds\.log cannot be written \(under 1 MB free on the filesystem shared with the state folder; left to the state\); \d+ line\(s\) dropped/,
      );
      assert.ok(free() >= (1 << 20) - 8192, `the reserve is left: ${free()} bytes free`);
      // The state gets what the log left it.
      writeFileSync(path.join(stateDir, 'state.json'), Buffer.alloc(900_000));
      rmSync(path.join(stateDir, 'state.json'));

      rmSync(ballast);
      await until(() => file.problem() === undefined, 3000, 'the log to resume');
      file.write(`${JSON.stringify({ msg: 'after' })}\n`);
      await file.close();
      assert.ok(readFileSync(file.file, 'utf8').endsWith('{"msg":"after"}\n'));
      assert.deepEqual(changes, ['stopped', 'resumed']);
      assert.ok(existsSync(file.file));
    } finally {
      fs.cleanup();
    }
  },
);
