// A GTFS zip bomb served over HTTP to the real service (the CLI in a child process, whose memory
// is its own): the schedule is refused with a fault on /status naming the feed and the limit it
// passed, the service stays within a unit's MemoryMax=400M and answers /mlds and /status
// throughout, and the schedule is not fetched again in a tight loop.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startCli, type CliChild } from '../helpers/cli-child.js';
import { baseConfig, serviceDir, until } from '../helpers/service.js';
import { feedMessage, feedServer } from './fixtures.js';
import { BOMB_ID_CHARS, writeGtfsBomb } from './gtfs-bomb.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MEMORY_MAX_MB = 400;
const kb = (field: string, pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
};

/** GETs `p` every `everyMs` until stopped, counting what was not answered 200 within `limitMs`. */
function keepAsking(svc: CliChild, p: () => string, everyMs: number, limitMs: number) {
  const r = { asked: 0, failed: [] as string[], worstMs: 0, stop: false, done: Promise.resolve() };
  r.done = (async () => {
    while (!r.stop) {
      const t = performance.now();
      r.asked++;
      try {
        const res = await fetch(svc.url + p(), { signal: AbortSignal.timeout(limitMs) });
        await res.arrayBuffer();
        if (res.status !== 200) r.failed.push(`${p()}: HTTP ${res.status}`);
      } catch (err) {
        r.failed.push(`${p()}: ${(err as Error).message}`);
      }
      r.worstMs = Math.max(r.worstMs, performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return r;
}

test(
  'a GTFS zip bomb (1.3 MB inflating to 1.2 GB) fetched by a running service: a fault on /status naming the feed ' +
    'and the limit, RSS under 400 MB, /mlds and /status answered throughout, no refetch loop',
  { timeout: 900_000 },
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-bomb-'));
    const srv = await feedServer();
    let svc: CliChild | undefined;
    try {
      const bomb = readFileSync(await writeGtfsBomb(path.join(dir, 'bomb.zip')));
      srv.bodies.set('/gtfs.zip', bomb);
      srv.bodies.set('/tu', feedMessage([], Date.now()));
      const c = baseConfig();
      c.feeds = { city: { type: 'gtfs-rt', url: srv.url('/tu'), static: srv.url('/gtfs.zip'), interval: '5' } };
      c.displays.main.layout.board = {
        deps: {
          type: 'departures',
          coordinates: '0 0 199 99',
          feed: 'city',
          stops: ['S1'],
          rows: '3',
          columns: [{ field: 'destination', width: '200' }],
        },
      };
      const sd = serviceDir(c);
      svc = await startCli(sd);
      const pid = svc.child.pid!;
      let n = 0;
      const mlds = keepAsking(svc, () => `/mlds?id=main&layout=l2&other=${n++}`, 200, 10_000);
      const status = keepAsking(svc, () => '/status', 200, 10_000);
      let rssMb = 0;
      let problems: Obj[] = [];
      let schedule: Obj = {};
      try {
        await until(
          async () => {
            rssMb = Math.max(rssMb, kb('VmRSS', pid) / 1024);
            // Before it was bounded, the service grew by hundreds of MB a minute: no need to wait for it all.
            if (rssMb > MEMORY_MAX_MB) return true;
            const s = (await (await fetch(`${svc!.url}/status`)).json()) as Obj;
            problems = s.problems as Obj[];
            schedule = s.components.feeds.feeds.city.schedule;
            // The service must also be seen answering on both sides of the fault, however soon it comes.
            return schedule.state === 'fault' && mlds.asked > 5 && status.asked > 5;
          },
          300_000,
          () => `the schedule's fault (RSS ${rssMb.toFixed(0)} MB, schedule ${JSON.stringify(schedule)})`,
          250,
        );
      } finally {
        mlds.stop = true;
        status.stop = true;
        await Promise.all([mlds.done, status.done]);
      }
      const peakMb = kb('VmHWM', pid) / 1024;
      console.log(
        `GTFS bomb: fault after ${mlds.asked} /mlds; peak RSS ${peakMb.toFixed(0)} MB;` +
          ` slowest /mlds ${mlds.worstMs.toFixed(0)} ms, /status ${status.worstMs.toFixed(0)} ms`,
      );
      assert.ok(peakMb < MEMORY_MAX_MB, `the service's peak RSS was ${peakMb.toFixed(0)} MB`);
      const problem = problems.find((p) => p.source === 'feeds')?.message as string;
      assert.match(problem, /^feed "city" schedule: /, 'the problem names the feed');
      const limit = new RegExp(`trip_id of ${BOMB_ID_CHARS} characters .*\\(at most 255\\)`);
      assert.match(problem, limit, 'and the limit passed');
      assert.deepEqual([...mlds.failed, ...status.failed], [], 'every request answered 200 within 10 s');
      assert.ok(mlds.asked > 5 && status.asked > 5);
      // Not fetched again at once: the next try is an hour away, and the board goes on without a schedule.
      assert.equal(srv.got.filter((g) => g.path === '/gtfs.zip').length, 1);
      assert.ok(Date.parse(schedule.nextLoadAt) - Date.now() > 55 * 60_000, `the next load at ${schedule.nextLoadAt}`);
      const s = (await (await fetch(`${svc.url}/status`)).json()) as Obj;
      assert.equal(s.components.feeds.feeds.city.state, 'ok', 'the realtime feed runs on');
    } finally {
      await svc?.kill();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
