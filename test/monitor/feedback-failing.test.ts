// Confirmations while the feedback server refuses or hangs: the TPCM's
// requests are answered as fast as with a healthy server, the queue stays bounded, and what
// is still within the retry bound arrives once the server is back.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

type Mode = 'ok' | 'slow' | 'refuse';

/** A feedback server that answers, holds every request for 10 s, or is not listening at all (connection refused). */
async function feedbackServer() {
  const got: string[] = [];
  const held: ServerResponse[] = [];
  let server: Server | undefined;
  let mode: Mode = 'ok';
  let port = 0;
  const listen = async () => {
    server = createServer((req, res) => {
      if (mode === 'slow') {
        held.push(res);
        setTimeout(() => res.end('late'), 10_000).unref();
        return;
      }
      got.push(new URL(req.url!, 'http://x').searchParams.get('inumber')!);
      res.end('ok');
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  };
  const shut = async () => {
    if (!server) return;
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
    server = undefined;
  };
  await listen();
  return {
    got,
    get port() {
      return port;
    },
    /**
     * Switches how the server behaves; 'refuse' closes the listening socket, anything else opens it again on the same
     * port.
     */
    async set(next: Mode) {
      mode = next;
      if (next === 'refuse') await shut();
      else if (!server) await listen();
    },
    close: shut,
  };
}

function configWithFeedback(port: number) {
  const c = baseConfig();
  c.displays.main.confirmIp = '127.0.0.1';
  c.displays.main.confirmPort = String(port);
  return c;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('/mlds answers as fast with the feedback server refusing or hanging 10 s as with a healthy one', async () => {
  const fb = await feedbackServer();
  const sd = serviceDir(configWithFeedback(fb.port));
  // The defaults (3 s per attempt, 5 attempts from 1 s): the production behaviour.
  const svc = await start(sd);
  let n = 0;
  const timed = async (count: number): Promise<number[]> => {
    const ms: number[] = [];
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      const r = await get(svc, `/mlds?id=main&layout=l1&title=T${n}&inumber=${n++}`);
      ms.push(performance.now() - t);
      assert.equal(r.status, 200);
    }
    return ms;
  };
  try {
    await timed(40); // warm-up
    const healthy = median(await timed(80));
    await until(() => fb.got.length >= 100, 10_000, 'the healthy confirmations');
    await fb.set('refuse');
    const refused = median(await timed(80));
    await fb.set('slow');
    const slow = median(await timed(80));
    const st = svc.feedback.status();
    console.log(
      `/mlds p50: healthy ${healthy.toFixed(2)} ms, refused ${refused.toFixed(2)} ms ` +
        `(${(refused / healthy).toFixed(2)}x), hanging ${slow.toFixed(2)} ms (${(slow / healthy).toFixed(2)}x); ` +
        `${st.queued} confirmations waiting`,
    );
    assert.ok(refused <= 3 * healthy, `refused: p50 ${refused.toFixed(2)} ms vs ${healthy.toFixed(2)} ms healthy`);
    assert.ok(slow <= 3 * healthy, `hanging: p50 ${slow.toFixed(2)} ms vs ${healthy.toFixed(2)} ms healthy`);
    assert.ok(st.targets[0].sending <= 4, 'at most 4 sends in flight to one server');
  } finally {
    svc.feedback.stop();
    await svc.close();
    await fb.close();
    sd.cleanup();
  }
});

test('the queue stays bounded: the oldest confirmation is dropped with a log line', async () => {
  const fb = await feedbackServer();
  await fb.set('slow');
  const sd = serviceDir(configWithFeedback(fb.port));
  const logDir = path.join(sd.dir, 'logs');
  const svc = await start(sd, { logDir, feedback: { queueLimit: 10, timeoutMs: 500 } });
  try {
    let most = 0;
    for (let i = 0; i < 30; i++) {
      assert.equal((await get(svc, `/mlds?id=main&layout=l1&title=Q${i}&inumber=q${i}`)).status, 200);
      most = Math.max(most, svc.feedback.status().queued);
    }
    await until(
      () => {
        most = Math.max(most, svc.feedback.status().queued);
        return svc.feedback.status().dropped === 20;
      },
      3000,
      '20 dropped',
    );
    assert.ok(most <= 10, `at most 10 waiting (saw ${most})`);
    const log = path.join(logDir, 'mlds.log');
    const drops = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.includes('confirmation dropped: the feedback queue is full'));
    await until(() => drops().length === 20, 3000, 'the drop lines');
    assert.deepEqual(
      drops().map((l) => (JSON.parse(l) as { inumber: string }).inumber),
      Array.from({ length: 20 }, (_, i) => `q${i}`),
      'oldest first',
    );
    assert.equal(svc.feedback.status().queued, 10);
    await until(() => svc.feedback.problems().length === 1, 3000, 'the problem, once the first attempts time out');
    assert.equal(svc.feedback.problems()[0].source, 'feedback');
    assert.match(svc.feedback.problems()[0].message, /no answer within 500 ms\); 10 waiting, 20 dropped/);
    // What a technician sees: the problem and the counts over HTTP.
    const st = (await get(svc, '/status')).json as {
      problems: Array<{ source: string }>;
      components: { feedback: { dropped: number; queued: number } };
    };
    assert.ok(
      st.problems.some((p) => p.source === 'feedback'),
      'the feedback problem on /status',
    );
    assert.equal(st.components.feedback.dropped, 20);
    assert.equal(st.components.feedback.queued, 10);
  } finally {
    svc.feedback.stop();
    await svc.close();
    await fb.close();
    sd.cleanup();
  }
});

test('once the feedback server is back, every confirmation still within the retry bound arrives', async () => {
  const fb = await feedbackServer();
  await fb.set('refuse');
  const sd = serviceDir(configWithFeedback(fb.port));
  const logDir = path.join(sd.dir, 'logs');
  // 4 attempts, 300 ms doubling: a confirmation is given up about 2.1 s after its first attempt.
  const svc = await start(sd, { logDir, feedback: { attempts: 4, firstDelayMs: 300, timeoutMs: 1000 } });
  try {
    for (let i = 0; i < 3; i++) await get(svc, `/mlds?id=main&layout=l1&title=G${i}&inumber=g${i}`);
    await until(() => svc.feedback.status().givenUp === 3, 8000, 'the first three to exhaust their attempts');
    for (let i = 0; i < 10; i++) await get(svc, `/mlds?id=main&layout=l1&title=R${i}&inumber=r${i}`);
    await until(() => svc.feedback.sent.length + svc.feedback.status().queued === 13, 3000, 'ten more queued');
    assert.equal(svc.feedback.problems().length, 1, 'a problem on /status while it refuses');
    await fb.set('ok');
    await until(() => fb.got.length === 10, 8000, 'the backlog to arrive');
    assert.deepEqual(
      [...fb.got].sort(),
      Array.from({ length: 10 }, (_, i) => `r${i}`).sort(),
      'every one within the bound, none given up',
    );
    await until(() => svc.feedback.status().queued === 0, 3000, 'the queue to empty');
    assert.deepEqual(svc.feedback.problems(), []);
    const log = path.join(logDir, 'mlds.log');
    await until(
      () => readFileSync(log, 'utf8').includes('the feedback server answers again'),
      3000,
      'the recovery line',
    );
    assert.equal(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"msg":"confirmation given up"')).length,
      3,
    );
  } finally {
    svc.feedback.stop();
    await svc.close();
    await fb.close();
    sd.cleanup();
  }
});
