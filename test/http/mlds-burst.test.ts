// A burst of commands for one display is drawn at most once per frame period, also
// when the commands come one at a time on one connection (each answered before the next is sent).
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { baseConfig, serviceDir, start, until } from '../helpers/service.js';

const PERIOD_MS = 20; // 50 fps, the default

/** GET on the keep-alive connection of `agent` (noted in `sockets`); resolves with the status once the body is read. */
function getOn(agent: http.Agent, url: string, sockets: Set<unknown>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      })
      .once('socket', (s) => sockets.add(s))
      .once('error', reject);
  });
}

test(
  '200 commands one after another on one connection: at ' + 'most one frame per period, the last command drawn',
  async (t) => {
    const sd = serviceDir(baseConfig());
    const svc = await start(sd);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const frames: number[] = [];
      const sockets = new Set<unknown>();
      const stop = svc.api.onFrame('main', () => frames.push(performance.now()));
      const N = 200;
      const t0 = performance.now();
      let lastSent = 0;
      for (let i = 0; i < N; i++) {
        lastSent = performance.now();
        assert.equal(await getOn(agent, `${svc.url}/mlds?id=main&layout=l1&title=Burst${i}`, sockets), 200);
      }
      const elapsed = performance.now() - t0;
      // The last change is drawn: a frame ends after it was sent.
      await until(() => frames.some((f) => f >= lastSent), 3000, 'the frame of the last command');
      stop();
      const drawn = frames.filter((f) => f >= t0);
      t.diagnostic(
        `${N} commands in ${elapsed.toFixed(0)} ms on ${sockets.size} connection(s): ${drawn.length} frames`,
      );
      assert.equal(sockets.size, 1, 'one connection');
      assert.equal(svc.controller().state('main').areas.get('title')?.text, `Burst${N - 1}`);
      // The first command draws at once; the rest fall into frames one period apart, plus the last.
      assert.ok(
        drawn.length <= Math.ceil(elapsed / PERIOD_MS) + 2,
        `${drawn.length} frames in ${elapsed.toFixed(0)} ms`,
      );
      // Frames start at least a period apart (a timer may fire a millisecond early); what is seen
      // here is each frame's end, so one frame's drawing time (a period at most) is allowed for.
      const span = drawn[drawn.length - 1] - drawn[0];
      assert.ok(span >= (drawn.length - 2) * (PERIOD_MS - 1), `${drawn.length} frames within ${span.toFixed(0)} ms`);
      if (elapsed < (N * PERIOD_MS) / 2) assert.ok(drawn.length < N / 2, `${drawn.length} frames for ${N} commands`);
    } finally {
      agent.destroy();
      await svc.close();
      sd.cleanup();
    }
  },
);
