// What a GTFS schedule may hold and inflate to (src/feeds/gtfs-limits.ts), and its reading
// thread's bounds (src/feeds/schedule-reader.ts): each refusal names what passed which limit.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import v8 from 'node:v8';
import yazl from 'yazl';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { InflateBudget, MAX_ENTRIES, MAX_KEPT_TRIPS } from '../../src/feeds/gtfs-limits.js';
import { loadGtfs, readGtfs } from '../../src/feeds/gtfs-static.js';
import { packSchedule, unpackSchedule } from '../../src/feeds/schedule-pack.js';
import { ScheduleReader } from '../../src/feeds/schedule-reader.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, csv, feedsRig, gtfsZip } from './fixtures.js';
import { schedule, T0 } from './gtfs-sample.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Rows = Array<Array<string | number>>;

const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const zipOf = (tables: Record<string, Rows>) => gtfsZip(path.join(dir, `g${++n}.zip`), tables);
const S1 = new Set(['S1']);

/** The sample schedule with `change` made to its tables. */
function sample(change: (t: Record<string, Rows>) => void): Record<string, Rows> {
  const t = schedule();
  change(t);
  return t;
}

test(
  'an id longer than 255 characters where a board needs it refuses the schedule, naming the file, the field ' +
    'and the limit',
  async () => {
    const long = (c: string) => c.repeat(300);
    const cases: Array<[string, (t: Record<string, Rows>) => void, RegExp]> = [
      [
        'trip_id at the stop',
        (t) => t['stop_times.txt'].push([long('T'), '11:50:00', '11:50:00', 'S1', 1]),
        /stop_times\.txt holds a trip_id of 300 characters where a board needs it \(at most 255\)/,
      ],
      [
        'stop_id on a kept trip',
        (t) => t['stop_times.txt'].push(['T1', '11:59:00', '11:59:00', long('S'), 9]),
        /stop_times\.txt holds a stop_id of 300 characters/,
      ],
      [
        'route_id of a kept trip',
        (t) => {
          t['trips.txt'][1][0] = long('R');
        },
        /trips\.txt holds a route_id of 300/,
      ],
      [
        'service_id of a kept trip',
        (t) => {
          t['trips.txt'][1][1] = long('W');
        },
        /trips\.txt holds a service_id of 300/,
      ],
      [
        "a platform of the board's station",
        (t) => t['stops.txt'].push([long('P'), 'Central, 9', 0, 'S1', '9']),
        /stops\.txt holds a stop_id of 300 characters/,
      ],
    ];
    for (const [what, change, message] of cases) {
      await assert.rejects(loadGtfs(await zipOf(sample(change)), S1), message, what);
    }
  },
);

test('long ids no board needs are passed over, and long texts are cut at 255 characters', async () => {
  const s = await loadGtfs(
    await zipOf(
      sample((t) => {
        t['stop_times.txt'].push(['F'.repeat(5000), '11:00:00', '11:00:00', 'S9', 1]);
        t['stops.txt'][4][1] = `Hauptbahnhof ${'Ö'.repeat(1000)}`;
        t['trips.txt'][1][3] = 'H'.repeat(1000);
        t['routes.txt'][1][2] = '1'.repeat(400);
      }),
    ),
    S1,
  );
  assert.equal(s.trips.size, 10);
  assert.equal(s.trips.get('T1')!.headsign, 'H'.repeat(255));
  assert.equal(s.trips.get('T1')!.route, '1'.repeat(255));
  assert.equal(s.trips.get('T5')!.headsign, 'Hauptbahnhof', 'a trip_headsign as it was');
  assert.equal(s.trips.get('T8')!.headsign, `Hauptbahnhof ${'Ö'.repeat(242)}`, 'the name of the stop it ends at, cut');
});

test(`more than ${MAX_KEPT_TRIPS} trips at the boards' stops refuse the schedule`, async () => {
  const times: Rows = [['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']];
  for (let i = 0; i <= MAX_KEPT_TRIPS; i++) times.push([`t${i}`, '08:00:00', '08:00:00', 'S1', 1]);
  const withTimes = () =>
    zipOf(
      sample((t) => {
        t['stop_times.txt'] = times;
      }),
    );
  await assert.rejects(loadGtfs(await withTimes(), S1), /more than 100000 trips call at the boards' stops/);
  times.pop();
  assert.equal((await loadGtfs(await withTimes(), S1)).trips.size, MAX_KEPT_TRIPS, 'as many as that is read');
});

test(`a zip of more than ${MAX_ENTRIES} entries is refused before any is read`, async () => {
  const zip = new yazl.ZipFile();
  for (const [name, rows] of Object.entries(schedule())) zip.addBuffer(Buffer.from(csv(rows)), name);
  for (let i = 0; i < MAX_ENTRIES; i++) zip.addBuffer(Buffer.from('x'), `extra/${i}.txt`);
  zip.end();
  const file = path.join(dir, 'many.zip');
  const out = createWriteStream(file);
  zip.outputStream.pipe(out);
  await once(out, 'close');
  await assert.rejects(loadGtfs(file, S1), /the schedule zip holds 1007 entries \(at most 1000\)/);
});

/** The sample with stop_times.txt padded by `mb` MB of rows no board needs. */
function padded(mb: number): Record<string, Rows> {
  return sample((t) => {
    const rows = t['stop_times.txt'];
    for (let i = 0; rows.length * 40 < mb * 2 ** 20; i++) {
      rows.push([`noise-${i}`, '08:00:00', '08:00:00', `X${i % 1000}`, 1]);
    }
  });
}

test(
  "staticMaxMB: the files' sizes as declared are checked first, and each file counts once though " +
    'stop_times.txt is read twice',
  async () => {
    const file = await zipOf(padded(0.7));
    const over = /the schedule's files unzip to 0\.\d MB \(more than staticMaxMB, 0\.5 MB\)/;
    await assert.rejects(readGtfs(file, S1, 0.5 * 2 ** 20), over);
    const s = await loadGtfs(file, S1, 2 ** 20);
    assert.equal(s.trips.size, 10, 'read twice, 1.4 MB passes; counted once, 0.7 MB is within 1 MB');
  },
);

test('a zip that declares less than its file inflates to is refused as the bytes arrive', async () => {
  const file = await zipOf(padded(1));
  const bytes = readFileSync(file);
  // Declare stop_times.txt 1000 bytes long, in its local header and in the central directory.
  const name = Buffer.from('stop_times.txt');
  for (const [sig, sizeAt, nameAt] of [
    [0x04034b50, 22, 30],
    [0x02014b50, 24, 46],
  ]) {
    for (let i = 0; i < bytes.length - 4; i++) {
      const named = bytes.subarray(i + nameAt, i + nameAt + name.length).equals(name);
      if (bytes.readUInt32LE(i) === sig && named) bytes.writeUInt32LE(1000, i + sizeAt);
    }
  }
  const liar = path.join(dir, 'liar.zip');
  writeFileSync(liar, bytes);
  await assert.rejects(loadGtfs(liar, S1, 2 ** 20), /stop_times\.txt: too many bytes in the stream/);
  // The count of its own does not rest on the zip library's: every file counted once, as it arrives.
  const budget = new InflateBudget(100);
  budget.arrived('stop_times.txt', 60);
  budget.arrived('stop_times.txt', 60);
  budget.arrived('trips.txt', 40);
  const over = /unzip to more than staticMaxMB \(0\.0 MB\), at stop_times\.txt/;
  assert.throws(() => budget.arrived('stop_times.txt', 61), over);
});

test(
  'staticMaxMB on a running feed: a schedule over it ' + 'is a fault on /status naming the feed and the limit',
  async () => {
    const clock = new FakeClock(T0);
    const rig = await feedsRig(
      boardConfig({ vbb: { type: 'gtfs-rt', url: 'http://127.0.0.1:1025/tu', static: 'gtfs.zip' } }, ['S1'], {
        staticMaxMB: 1,
      }),
      clock,
      { 'gtfs.zip': readFileSync(await zipOf(padded(1.5))) },
    );
    try {
      const sched = () => (rig.feeds.status().feeds as Obj).vbb.schedule;
      await until(() => sched().state === 'fault', 20_000, 'the schedule refused');
      assert.match(sched().lastFault, /unzip to 1\.\d MB \(more than staticMaxMB, 1\.0 MB\)/);
      const problem = /^feed "vbb" schedule: the schedule's files unzip to 1\.\d MB/;
      assert.ok(
        rig.feeds.problems().some((p) => problem.test(p.message)),
        'a problem naming the feed',
      );
    } finally {
      await rig.stop();
    }
  },
);

test(
  'a schedule that needs more memory than its thread may use fails that read alone: the process goes on, and the ' +
    'next read works',
  { timeout: 120_000 },
  async () => {
    // Every trip calls at S1: 300,000 stop times kept, some 60 MB of the thread's heap.
    const times: Rows = [['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']];
    for (let t = 0; t < 10_000; t++) {
      for (let i = 0; i < 30; i++) times.push([`trip-${t}`, '08:00:00', '08:00:00', i === 3 ? 'S1' : `X${i}`, i]);
    }
    const big = await zipOf(
      sample((t) => {
        t['stop_times.txt'] = times;
      }),
    );
    const small = await zipOf(schedule());
    const tight = new ScheduleReader(24);
    try {
      await assert.rejects(
        tight.read(big, S1, 2 ** 30),
        /reading the schedule needs more than the 24 MB its thread may/,
      );
      assert.equal((await tight.read(small, S1, 2 ** 30)).trips.size, 10, 'a new thread for the next read');
    } finally {
      await tight.close();
    }
    const reader = new ScheduleReader();
    try {
      assert.equal((await reader.read(big, S1, 2 ** 30)).size, 300_000, "within the service's heap limit it is read");
    } finally {
      await reader.close();
    }
  },
);

test('a read that takes too long is ended', async () => {
  const reader = new ScheduleReader(undefined, 1);
  try {
    const late = /reading the schedule took more than 0\.001 s/;
    await assert.rejects(reader.read(await zipOf(schedule()), S1, 2 ** 30), late);
    assert.equal(reader.running, false, 'its thread ended');
  } finally {
    await reader.close();
  }
});

test('a schedule crosses from its thread packed, and unpacks to what was read', async () => {
  const parts = await readGtfs(
    await zipOf(
      sample((t) => {
        t['stop_times.txt'].push(['T1', '', '', 'S2', 4]);
        t['stop_times.txt'][1].push('Hbf via Zoo');
        t['stop_times.txt'][0].push('stop_headsign');
      }),
    ),
    S1,
    2 ** 30,
  );
  assert.ok(Number.isNaN(parts.trips.get('T1')!.stops.at(-1)!.sec), 'a stop time without a time');
  const packed = packSchedule(parts);
  const back = await unpackSchedule(v8.deserialize(v8.serialize(packed)));
  assert.deepEqual(back, parts);
  assert.ok(packed.strings.length < 60, `each string once (${packed.strings.length})`);
});
