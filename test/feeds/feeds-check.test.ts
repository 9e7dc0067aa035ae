import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { normalize } from '../../src/config/normalize.js';
import type { ConfigFault } from '../../src/config/faults.js';
import { checkSchedules } from '../../src/preview/feeds-check.js';
import { boardConfig, gtfsZip } from './fixtures.js';
import { schedule } from './gtfs-sample.js';

test('mlds test reads a schedule in the service folder offline and names a board stop no trip calls at, and an unreadable zip', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
  try {
    writeFileSync(path.join(dir, 'good.zip'), readFileSync(await gtfsZip(path.join(tmpdir(), `g-${process.pid}.zip`), schedule())));
    writeFileSync(path.join(dir, 'bad.zip'), 'PK but not really');
    const raw = boardConfig({ good: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: 'good.zip' } }, ['S1', 'NOPE']);
    (raw.feeds as Record<string, unknown>).bad = { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: 'bad.zip' };
    (raw.feeds as Record<string, unknown>).remote = { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: 'http://127.0.0.1:8080/g.zip' };
    const faults: ConfigFault[] = [];
    const r = await checkSchedules(normalize(raw, dir, faults));
    assert.deepEqual(faults, []);
    assert.deepEqual(r.notes, [
      "feed good: schedule read: 10 trips and 22 stop times for the boards' 2 stop(s), zone Europe/Berlin",
      'feed remote: the schedule is fetched at start (not checked offline)',
    ]);
    assert.deepEqual(r.warnings, ['/displays/stop1/layout/board/deps/stops: no trip of feed good\'s schedule calls at stop "NOPE"']);
    assert.equal(r.faults.length, 1);
    assert.equal(r.faults[0].path, '/feeds/bad/static');
    assert.match(r.faults[0].message, /not a zip file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.join(tmpdir(), `g-${process.pid}.zip`), { force: true });
  }
});
