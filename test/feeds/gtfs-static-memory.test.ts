import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { promisify } from 'node:util';
import yazl from 'yazl';
import { REPO } from '../helpers/service.js';
import { csv } from './fixtures.js';

/** Rows of stop_times.txt for stops no board names, `bytes` of them, then the two trips that call at S1. */
function stopTimes(bytes: number): Readable {
  let written = 0;
  let n = 0;
  let done = false;
  return new Readable({
    read() {
      if (done) { this.push(null); return; }
      const lines: string[] = [];
      if (n === 0) lines.push('trip_id,arrival_time,departure_time,stop_id,stop_sequence');
      for (let i = 0; i < 2000; i++, n++) {
        const h = String(5 + (n % 19)).padStart(2, '0');
        lines.push(`noise${Math.floor(n / 30)},${h}:${String(n % 60).padStart(2, '0')}:00,${h}:${String(n % 60).padStart(2, '0')}:00,X${n % 90_001},${n % 30}`);
      }
      const text = lines.join('\n') + '\n';
      written += text.length;
      if (written >= bytes) {
        done = true;
        this.push(text + 'mine1,08:00:00,08:00:00,S0,1\nmine1,08:05:00,08:05:00,S1,2\nmine2,09:00:00,09:00:00,S1,1\n');
        return;
      }
      this.push(text);
    },
  });
}

test('a 200 MB GTFS zip is read as a stream: the resident set grows by a bounded amount, and the boards\' trips are found', { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-big-'));
  try {
    const file = path.join(dir, 'national.zip');
    const zip = new yazl.ZipFile();
    const small = {
      'agency.txt': [['agency_name', 'agency_url', 'agency_timezone'], ['Big', 'https://example.org', 'Europe/Berlin']],
      'stops.txt': [['stop_id', 'stop_name'], ['S0', 'Zero'], ['S1', 'One']],
      'routes.txt': [['route_id', 'route_short_name', 'route_type'], ['R', '7', 3]],
      'trips.txt': [['route_id', 'service_id', 'trip_id'], ['R', 'D', 'mine1'], ['R', 'D', 'mine2']],
      'calendar.txt': [['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'], ['D', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231']],
    };
    for (const [name, rows] of Object.entries(small)) zip.addBuffer(Buffer.from(csv(rows)), name);
    // Stored, so the zip itself is 200 MB (a deflated national feed holds several times that in text).
    zip.addReadStream(stopTimes(200 * 2 ** 20), 'stop_times.txt', { compress: false });
    zip.end();
    const out = createWriteStream(file);
    zip.outputStream.pipe(out);
    await once(out, 'close');
    assert.ok(statSync(file).size >= 200 * 2 ** 20, 'a 200 MB zip');

    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'gtfs-memory-child.ts'), file], { cwd: REPO, timeout: 540_000 });
    const r = JSON.parse(stdout) as { trips: string[]; stopTimes: number; growthMB: number; seconds: number };
    console.log(`200 MB GTFS zip: read in ${r.seconds.toFixed(1)} s, resident set grew ${r.growthMB.toFixed(1)} MB`);
    assert.deepEqual(r.trips, ['mine1', 'mine2']);
    assert.equal(r.stopTimes, 3, 'all the stop times of the trips calling at S1, nothing else');
    assert.ok(r.growthMB < 64, `the resident set grew ${r.growthMB.toFixed(1)} MB reading 200 MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
