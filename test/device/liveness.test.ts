// What feeds the watchdog: FrameLoop.stalled() for an idle, a stopped, an overdue and an
// output-held loop, and the HTTP probe (answered by Node itself, so never in the request log;
// a closed port is a problem).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { appStatus, probeHttp } from '../../src/device/http-probe.js';
import { livenessProblems } from '../../src/device/liveness.js';
import type { Frame } from '../../src/frame.js';
import { FrameLoop } from '../../src/render/loop.js';
import type { Unit } from '../../src/render/unit.js';
import { baseConfig, serviceDir, start } from '../helpers/service.js';
import { area, rig, T0 } from '../render/helpers.js';

function loopWith(sink: (f: Frame) => Promise<boolean>, scrolling: boolean) {
  let now = T0;
  const a = area({ id: 'a', scrollSpeed: 4 });
  const r = rig([a]);
  r.set(a, { text: scrolling ? 'A text far too long to fit, so it scrolls across the whole area' : 'Hi', setAt: T0 });
  const loop = new FrameLoop(r.compositor, sink, () => now, { fps: 10 });
  return {
    loop,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

test('a loop with nothing due is alive however long it sleeps; a stopped one is not', async () => {
  const { loop, advance } = loopWith(async () => true, false);
  loop.start();
  await new Promise((r) => setImmediate(r));
  advance(3_600_000);
  assert.equal(loop.stalled(1000), undefined);
  loop.stop();
  assert.equal(loop.stalled(1000), 'stopped');
});

test('a frame due and not drawn for longer than the limit is a stall', () => {
  const { loop, advance } = loopWith(async () => true, true);
  loop.start();
  // Scrolling: the next frame is due one period (100 ms) on. The clock jumps past it with
  // no timer run, as when the loop's timer never fires.
  advance(50);
  assert.equal(loop.stalled(1000), undefined);
  advance(1500);
  assert.match(loop.stalled(1000)!, /^a frame due 14\d\d ms ago was not drawn$/);
  loop.stop();
});

test('an output holding a frame for longer than the limit is a stall', async () => {
  let release!: (ok: boolean) => void;
  const { loop, advance } = loopWith(
    () =>
      new Promise<boolean>((r) => {
        release = r;
      }),
    false,
  );
  loop.start();
  advance(2000);
  assert.equal(loop.stalled(1000), 'the output has held a frame for 2000 ms');
  release(true);
  await new Promise((r) => setImmediate(r));
  assert.equal(loop.stalled(1000), undefined);
  loop.stop();
});

test(
  'the HTTP probe is answered by the server (417) ' + 'without a request log line; a closed port is a problem',
  async () => {
    const sd = serviceDir(baseConfig());
    const logDir = join(sd.dir, 'logs');
    const svc = await start(sd, { logDir });
    try {
      assert.equal(await probeHttp(svc.port, 5000), undefined);
      assert.equal(await appStatus(svc.port, 5000), 200);
      const units = svc.runtime.units as ReadonlyMap<string, Unit>;
      assert.deepEqual(
        await livenessProblems(
          { units: () => units, ports: () => ({ http: svc.port }) },
          { maxLagMs: 10_000, httpTimeoutMs: 5000 },
        ),
        [],
      );
    } finally {
      await svc.close();
    }
    const lines = readdirSync(logDir).flatMap((f) =>
      readFileSync(join(logDir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string; url?: string }),
    );
    const requests = lines.filter((l) => l.msg === 'request');
    assert.deepEqual(
      requests.map((l) => l.url),
      ['/status'],
      'only the ordinary request is logged, not the probe',
    );
    sd.cleanup();

    // A port nobody listens on any more.
    const srv = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r));
    assert.deepEqual(
      await livenessProblems(
        { units: () => new Map(), ports: () => ({ http: port }) },
        { maxLagMs: 1000, httpTimeoutMs: 5000 },
      ),
      [`HTTP on port ${port}: ECONNREFUSED`],
    );
  },
);
