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
import { CALENDAR_HEADER, csv } from './fixtures.js';

/**
 * Rows of stop_times.txt for stops no board names, `bytes` of them, then the two trips that call
 * at S1; with `keptEvery`, a trip calling at S1 (an id of 28 characters) every that many rows too.
 */
function stopTimes(bytes: number, keptEvery = 0): Readable {
  let written = 0;
  let n = 0;
  let done = false;
  return new Readable({
    read() {
      if (done) {
        this.push(null);
        return;
      }
      const lines: string[] = [];
      if (n === 0) lines.push('trip_id,arrival_time,departure_time,stop_id,stop_sequence');
      for (let i = 0; i < 2000; i++, n++) {
        const h = String(5 + (n % 19)).padStart(2, '0');
        lines.push(
          `noise${Math.floor(n / 30)},${h}:${String(n % 60).padStart(2, '0')}:00,` +
            `${h}:${String(n % 60).padStart(2, '0')}:00,X${n % 90_001},${n % 30}`,
        );
        const kept = `kept-${String(n).padStart(9, '0')}-abcdefghijklm`;
        if (keptEvery && n % keptEvery === 0) lines.push(`${kept},08:00:00,08:00:00,S1,1`);
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

/** A stored (not deflated) GTFS zip whose stop_times.txt holds `bytes` of rows (see stopTimes). */
async function bigZip(file: string, bytes: number, keptEvery = 0): Promise<void> {
  const zip = new yazl.ZipFile();
  const small = {
    'agency.txt': [
      ['agency_name', 'agency_url', 'agency_timezone'],
      ['Big', 'https://example.org', 'Europe/Berlin'],
    ],
    'stops.txt': [
      ['stop_id', 'stop_name'],
      ['S0', 'Zero'],
      ['S1', 'One'],
    ],
    'routes.txt': [
      ['route_id', 'route_short_name', 'route_type'],
      ['R', '7', 3],
    ],
    'trips.txt': [
      ['route_id', 'service_id', 'trip_id'],
      ['R', 'D', 'mine1'],
      ['R', 'D', 'mine2'],
    ],
    'calendar.txt': [CALENDAR_HEADER, ['D', 1, 1, 1, 1, 1, 1, 1, '20260101', '20271231']],
  };
  for (const [name, rows] of Object.entries(small)) zip.addBuffer(Buffer.from(csv(rows)), name);
  // Stored, so the zip itself is as large as its text (a deflated national feed holds several times its size in text).
  zip.addReadStream(stopTimes(bytes, keptEvery), 'stop_times.txt', { compress: false });
  zip.end();
  const out = createWriteStream(file);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}

interface Read {
  trips: string[];
  stopTimes: number;
  growthMB: number;
  seconds: number;
}

async function readInChild(file: string): Promise<Read> {
  const child = path.join(import.meta.dirname, 'gtfs-memory-child.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, file], {
    cwd: REPO,
    timeout: 540_000,
    maxBuffer: 64 * 2 ** 20,
  });
  return JSON.parse(stdout) as Read;
}

test(
  "a 200 MB GTFS zip is read as a stream: the resident set grows by a bounded amount, and the boards' trips are found",
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-big-'));
    try {
      const file = path.join(dir, 'national.zip');
      await bigZip(file, 200 * 2 ** 20);
      assert.ok(statSync(file).size >= 200 * 2 ** 20, 'a 200 MB zip');
      const r = await readInChild(file);
      console.log(`200 MB GTFS zip: read in ${r.seconds.toFixed(1)} s, resident set grew ${r.growthMB.toFixed(1)} MB`);
      assert.deepEqual(r.trips, ['mine1', 'mine2']);
      assert.equal(r.stopTimes, 3, 'all the stop times of the trips calling at S1, nothing else');
      assert.ok(r.growthMB < 64, `the resident set grew ${r.growthMB.toFixed(1)} MB reading 200 MB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'trips kept from all over a large stop_times.txt hold only their own text, not the chunks they were read from',
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-spread-'));
    try {
      // One trip at S1 every 100 rows (some 5 KB): about 20,000 trips from every 16 KB chunk of 100 MB.
      const file = path.join(dir, 'spread.zip');
      await bigZip(file, 100 * 2 ** 20, 100);
      const r = await readInChild(file);
      console.log(
        `100 MB GTFS zip, ${r.trips.length} trips kept: read in ${r.seconds.toFixed(1)} s,` +
          ` resident set grew ${r.growthMB.toFixed(1)} MB`,
      );
      assert.ok(r.trips.length > 15_000, `${r.trips.length} trips`);
      assert.equal(r.stopTimes, r.trips.length + 1, "each kept trip's stop time (mine1 has two)");
      // Holding the chunks, it grew by some 250 MB; holding their own ids, by some 40 (while reading).
      assert.ok(r.growthMB < 96, `the resident set grew ${r.growthMB.toFixed(1)} MB keeping ${r.trips.length} trips`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
