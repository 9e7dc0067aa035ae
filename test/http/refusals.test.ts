// Refusals escape neither the rate limit nor the log's bound: floods of
// refused methods, unparseable requests, long URLs and malformed requests from one address
// are logged as a few counted lines (before the fix: one line each), every one of them is
// counted, and they count against the address's rate, so a valid request from it right after
// is refused 429 while another address is served.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, until, logLines } from '../helpers/service.js';

/**
 * Writes `data` on a new connection from `localAddress` and resolves with everything answered until the server closes
 * it.
 */
function exchange(port: number, data: string, localAddress = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let got = '';
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
    });
    socket.on('error', () => {
      /* a reset after the answer */
    });
    socket.on('close', () => resolve(got));
    socket.write(data);
  });
}

const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** `n` exchanges of `data`, `parallel` at a time; the statuses answered. */
async function flood(port: number, data: string, n: number, parallel = 50): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, () => exchange(port, data)));
    for (const b of batch) out.push(...statuses(b));
  }
  return out;
}

const RATE = 5;
const second = () => Math.floor(Date.now() / 1000);

/**
 * At most two lines (refused, rate limited) per client per second the flood lasted, and one
 * more pair for the window it ended in: one line per request before the fix.
 */
function bounded(logged: object[], requests: number, since: number): void {
  const seconds = Math.ceil((Date.now() - since) / 1000) + 1;
  assert.ok(
    logged.length <= 2 * seconds && logged.length <= requests / 20,
    `${logged.length} log lines for ${requests} refused requests in ${seconds} s`,
  );
}

test(
  'refused requests count against the rate and are ' + 'logged as counts: 405, parser errors, 414, malformed',
  async () => {
    const sd = serviceDir({ ...baseConfig(), rateLimit: String(RATE) });
    const logDir = path.join(sd.dir, 'logs');
    const svc = await start(sd, { logDir });
    const lines = () => logLines(logDir);
    let seen = 0;
    /** Lines logged since the last call, once every count is out. */
    const newLines = async (counted: number) => {
      const summed = () =>
        lines()
          .slice(seen)
          .filter((l) => /^(refused|rate limited): /.test(String(l.msg)))
          .reduce((n, l) => n + Number(l.refused), 0);
      await until(() => summed() === counted, 5000, `${counted} refusals counted`);
      const all = lines();
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh;
    };
    /**
     * A few more of `data` (over the rate), then a valid request from the same address and one
     * from another. Tried again when a second boundary fell in between (fixed windows).
     */
    const rateApplies = async (data: string, what: string) => {
      for (let attempt = 0; ; attempt++) {
        const before = second();
        const tail = await flood(svc.port, data, RATE * 2, RATE * 2);
        const same = statuses(await exchange(svc.port, 'GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
        if (second() !== before && attempt < 5) {
          await newLines(tail.length + (same[0] === 429 ? 1 : 0));
          continue;
        }
        assert.deepEqual(same, [429], `${what}: a valid request right after is over the rate`);
        const other = statuses(
          await exchange(svc.port, 'GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '127.0.0.2'),
        );
        assert.deepEqual(other, [200], `${what}: another address is served`);
        await newLines(tail.length + 1);
        return;
      }
    };
    try {
      assert.equal((await get(svc, '/status')).status, 200);
      seen = lines().length;

      // 3,000 pipelined POST /status on one connection: a few 405s, then 429s (the rate applies to them).
      const post = 'POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n';
      let since = Date.now();
      const first = second();
      const answered = statuses(
        await exchange(svc.port, `${post.repeat(2999)}POST /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      assert.equal(answered.length, 3000);
      assert.ok(answered.every((s) => s === 405 || s === 429));
      // The rate's windows are whole seconds: RATE in each one the 3,000 answers spanned (two on
      // an idle machine, more on a loaded one), and nothing like 3,000.
      const windows = second() - first + 1;
      assert.ok(
        answered.filter((s) => s === 405).length <= RATE * windows,
        `${answered.filter((s) => s === 405).length} answered 405 in ${windows} windows`,
      );
      let logged = await newLines(3000);
      bounded(logged, 3000, since);
      const summary = logged.find((l) => String(l.msg).startsWith('refused: '));
      assert.equal(summary?.ip, '127.0.0.1');
      assert.equal(summary?.example, 'POST /status');
      assert.deepEqual(Object.keys(summary?.statuses as object), ['405']);
      await rateApplies(post.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'), 'POST');

      // 3,000 requests Node's parser refuses (one per connection: each answer closes it).
      const foo = 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n';
      since = Date.now();
      const bad = await flood(svc.port, foo, 3000);
      assert.deepEqual(new Set(bad), new Set([400]));
      logged = await newLines(3000);
      bounded(logged, 3000, since);
      assert.ok(logged.every((l) => l.msg !== 'request refused by the HTTP parser' && l.msg !== 'request'));
      await rateApplies(foo, 'FOO');

      // 300 URLs of 13 KB: 414 each, a few lines.
      const long = `GET /mlds?id=main&layout=l1&title=${'a'.repeat(13_000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
      since = Date.now();
      assert.deepEqual(new Set(await flood(svc.port, long, 300)), new Set([414]));
      logged = await newLines(300);
      bounded(logged, 300, since);
      assert.ok(
        logged.every((l) => !JSON.stringify(l).includes('aaaa')),
        'the long URL is not logged',
      );
      await rateApplies(long, '414');

      // Malformed requests of every kind, 1,000 each: bad request lines and headers, headers over
      // the limit, CONNECT, an unknown path.
      const malformed = [
        'this is not http\r\n\r\n',
        'GET / HTTP/1.1\r\nBad Header\r\n\r\n',
        `GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
        'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET /no/such/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ];
      let sent = 0;
      since = Date.now();
      for (const m of malformed) sent += (await flood(svc.port, m, 1000)).length;
      assert.equal(sent, 5000);
      logged = await newLines(5000);
      bounded(logged, 5000, since);
      assert.ok(
        logged.every((l) => l.msg !== 'request'),
        'no line per request',
      );
      await rateApplies('GET /no/such/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '404');
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
