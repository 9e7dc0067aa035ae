import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { normalize } from '../../src/config/normalize.js';
import type { ConfigFault } from '../../src/config/faults.js';
import { checkSchedules } from '../../src/preview/feeds-check.js';
import { boardConfig, gtfsZip } from './fixtures.js';
import { at, schedule, T0 } from './gtfs-sample.js';
import { renderLayoutsToPng } from '../../src/preview/render.js';

test('mlds test reads a schedule in the service folder offline, names a board stop no trip calls at and an unreadable zip, and draws the boards from it', async () => {
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
      "feed good: schedule read: 10 trips and 29 stop times for the boards' 2 stop(s), zone Europe/Berlin",
      'feed remote: the schedule is fetched at start (not checked offline)',
    ]);
    assert.deepEqual(r.warnings, ['/displays/stop1/layout/board/deps/stops: no trip of feed good\'s schedule calls at stop "NOPE"']);
    assert.equal(r.faults.length, 1);
    assert.equal(r.faults[0].path, '/feeds/bad/static');
    assert.match(r.faults[0].message, /not a zip file/);

    // The schedule read is the sample the previews draw the boards from: scheduled, not live.
    const b = r.boards.board({ feed: 'good', stops: ['S1'], staleAfter: 180, now: T0, limit: 3 });
    assert.equal(b.state, 'scheduled');
    assert.deepEqual(b.departures.map((d) => [d.route, d.destination, d.time, d.live]), [['12', 'Hauptbahnhof', at('11:05'), false], ['12', 'Hauptbahnhof', at('11:10'), false], ['12', 'Hauptbahnhof', at('11:15'), false]]);
    assert.equal(r.boards.board({ feed: 'remote', stops: ['S1'], staleAfter: 180, now: T0, limit: 3 }).state, 'no-data');
    const config = normalize(boardConfig({ good: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: 'good.zip' } }, ['S1'], {}, { columns: [{ field: 'route', width: '30' }, { field: 'destination', width: '160' }] }), dir, []);
    const [withSample] = await renderLayoutsToPng(config, r.boards);
    const [without] = await renderLayoutsToPng(config);
    assert.ok(!withSample.png.equals(without.png), 'the board drawn from the schedule, not its noDataText');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.join(tmpdir(), `g-${process.pid}.zip`), { force: true });
  }
});
