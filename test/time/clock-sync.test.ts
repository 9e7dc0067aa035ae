import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  parseChronyTracking,
  parseTimespan,
  parseTimesyncStatus,
  systemClockSync,
  type Run,
} from '../../src/time/clock-sync.js';

// `chronyc -c tracking` as chrony 4.3 (Debian 12) prints it: following a server, a daemon that
// follows nothing yet, one on its local clock only, and a leap second pending.
const SYNCED = `A29FC87B,time.example.com,3,1700000000.123456789,-0.000012345,0.000001234,0.000045678,-12.345,0.001,0.012,0.012345678,0.001234567,1024.5,Normal\n`;
const FAST = `C0A80101,192.168.1.1,3,1776153600.123456,-90.250000000,0.000045,0.000067,12.345,0.010,0.250,0.001200,0.004500,64.0,Normal\n`;
const SLOW = `C0A80101,192.168.1.1,3,1776153600.123456,0.000123,0.000045,0.000067,12.345,0.010,0.250,0.001200,0.004500,64.0,Normal\n`;
const UNSYNCED =
  '00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,1.000000000,1.000000000,0.0,Not ' +
  'synchronised\n';
const LOCAL = `7F7F0101,,10,1776153600.000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,0.000000000,0.000000000,0.0,Normal\n`;
const LEAP =
  'C0A80101,192.168.1.1,2,1776153600.123456,0.000002,0.000001,0.000003,1.0,0.0,0.1,0.0012,0.0045,64.0,Insert second\n';

test(
  'chronyc -c tracking: synchronized or not, and the offset ' +
    "with chrony's sign turned (positive: the clock is ahead)",
  () => {
    assert.deepEqual(parseChronyTracking(SYNCED), {
      source: 'chrony',
      synchronized: true,
      offsetMs: 0.012,
      server: 'time.example.com',
    });
    // System time -90.25 s: chrony's "fast of NTP time": the clock is 90.25 s ahead.
    assert.equal(parseChronyTracking(FAST).offsetMs, 90250);
    assert.equal(parseChronyTracking(SLOW).offsetMs, -0.123);
    assert.deepEqual(parseChronyTracking(UNSYNCED), { source: 'chrony', synchronized: false, offsetMs: null });
    assert.equal(parseChronyTracking(LOCAL).synchronized, false, 'its own local clock is no time source');
    assert.equal(parseChronyTracking(LEAP).synchronized, true);
    const odd = parseChronyTracking('506 Cannot talk to daemon\n');
    assert.equal(odd.synchronized, null);
    assert.match(odd.message!, /Cannot talk to daemon/);
  },
);

// `timedatectl timesync-status` of systemd 252.
const TIMESYNC = `       Server: 192.0.2.10 (ntp.example.org)
Poll interval: 34min 8s (min: 32s; max 34min 8s)
         Leap: normal
      Version: 4
      Stratum: 2
    Reference: C0A80101
    Precision: 1us (-24)
Root distance: 1.234ms (max: 5s)
       Offset: -1.282ms
        Delay: 2.156ms
       Jitter: 1.030ms
 Packet count: 42
    Frequency: -12.345ppm
`;

test("timedatectl timesync-status: the offset (NTP's sign turned) and NTPSynchronized", () => {
  assert.deepEqual(parseTimesyncStatus(TIMESYNC, 'yes\n'), {
    source: 'timesyncd',
    synchronized: true,
    offsetMs: 1.282,
    server: '192.0.2.10 (ntp.example.org)',
  });
  assert.equal(parseTimesyncStatus(TIMESYNC.replace('-1.282ms', '+1min 30.5s'), 'no').offsetMs, -90500);
  assert.deepEqual(parseTimesyncStatus('       Server: n/a\n', 'no'), {
    source: 'timesyncd',
    synchronized: false,
    offsetMs: null,
    server: 'n/a',
  });
  assert.equal(parseTimespan('-265us'), -0.265);
  assert.equal(parseTimespan('+12µs'), 0.012);
  assert.equal(parseTimespan('+2s'), 2000);
  assert.equal(parseTimespan('soon'), undefined);
});

test('the system reader: chrony when chronyc answers, else timesyncd, else none with why', async () => {
  const calls: string[] = [];
  const runner =
    (answers: Record<string, Awaited<ReturnType<Run>>>): Run =>
    async (file, args) => {
      calls.push(`${file} ${args.join(' ')}`);
      return answers[`${file} ${args[0]}`] ?? { error: 'not found', code: 'ENOENT' };
    };
  assert.equal((await systemClockSync(runner({ 'chronyc -c': { out: FAST } })).read()).offsetMs, 90250);
  assert.deepEqual(calls, ['chronyc -c tracking']);
  const t = await systemClockSync(
    runner({ 'timedatectl timesync-status': { out: TIMESYNC }, 'timedatectl show': { out: 'no\n' } }),
  ).read();
  assert.deepEqual([t.source, t.synchronized, t.offsetMs], ['timesyncd', false, 1.282]);
  const none = await systemClockSync(runner({})).read();
  assert.equal(none.source, 'none');
  assert.match(none.message!, /no chronyc; timedatectl: not installed/);
});

test('on this machine the reader answers within its bounds, whatever the machine has', async () => {
  const r = await systemClockSync().read();
  assert.ok(['chrony', 'timesyncd', 'none'].includes(r.source));
  if (r.source === 'none') assert.ok(r.message);
});
