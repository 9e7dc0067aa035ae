// The two ways into the /mlds route answer alike: every request here is sent to /mlds (taken
// ahead of koa's router: src/http/early.ts) and to /mlds/ (the same route through koa's router),
// and the answers and the log lines they leave must not differ.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Koa, { type Middleware } from 'koa';
import { createApp } from '../../src/http/app.js';
import { createHttpServer } from '../../src/http/server.js';
import { earlyListener } from '../../src/http/early.js';
import type { RunningService } from '../../src/main.js';
import { baseConfig, serviceDir, start, type ServiceDir } from '../helpers/service.js';

interface Raw {
  status: number;
  message: string;
  headers: string[];
  body: string;
}

/** The answer as sent: status line, headers in order (less the ones Node adds), body. */
function raw(port: number, pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path: pathAndQuery, headers, method, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => {
          const kept: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (!/^(date|connection|keep-alive)$/i.test(res.rawHeaders[i]))
              kept.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          }
          resolve({ status: res.statusCode!, message: res.statusMessage!, headers: kept, body });
        });
      })
      .on('error', reject)
      .end();
  });
}

function setup(config: Record<string, unknown>) {
  const ctx = {} as {
    sd: ServiceDir;
    svc: RunningService;
    server: Server;
    port: number;
    lines: Array<Record<string, unknown>>;
    ready: boolean;
  };
  before(async () => {
    ctx.sd = serviceDir(config);
    ctx.svc = await start(ctx.sd);
    ctx.lines = [];
    ctx.ready = true;
    const log = {
      info: (o: object, msg: string) => {
        ctx.lines.push({ ...o, msg });
      },
      warn() {},
      error: (o: object, msg: string) => {
        ctx.lines.push({ ...o, msg });
      },
    };
    ctx.server = createHttpServer(createApp({ ...ctx.svc.api, ready: () => ctx.ready }, log), log);
    ctx.server.listen(0, '127.0.0.1');
    await once(ctx.server, 'listening');
    ctx.port = (ctx.server.address() as AddressInfo).port;
  });
  after(async () => {
    ctx.server.close();
    await ctx.svc.close();
    ctx.sd.cleanup();
  });
  return ctx;
}

/** Sends `query` to /mlds and /mlds/; asserts the same answer and log lines; returns the answer. */
async function same(
  ctx: ReturnType<typeof setup>,
  query: string,
  headers: Record<string, string> = {},
  method = 'GET',
) {
  const sent = async (path: string) => {
    const from = ctx.lines.length;
    const answer = await raw(ctx.port, `${path}${query}`, headers, method);
    return { answer, lines: ctx.lines.splice(from) };
  };
  const fast = await sent('/mlds');
  const koa = await sent('/mlds/');
  assert.deepEqual(fast.answer, koa.answer, `${method} ${query}`);
  const strip = (l: Record<string, unknown> | undefined) => ({ ...l, url: undefined, ms: undefined });
  assert.deepEqual(fast.lines.map(strip), koa.lines.map(strip), `log lines of ${method} ${query}`);
  const line = fast.lines.find((l) => l.msg === 'request');
  if (line) {
    assert.equal(line.url, `/mlds${query.replace(/key=[^&]*/, 'key=***')}`);
    assert.equal(typeof line.ms, 'number');
  }
  return fast.answer;
}

describe('/mlds answers alike ahead of koa and through its router', () => {
  const ctx = setup({ ...baseConfig(), unknownAreaKeys: 'ignore' });

  test('accepted commands, ignored keys, and every kind of fault', async () => {
    assert.equal((await same(ctx, '?id=main&layout=l1&title=Fast&inumber=7')).body, '{"result":"command received"}');
    assert.equal((await same(ctx, '?id=main&layout=l1&title=Fast&nope=1')).status, 200);
    assert.equal((await same(ctx, '')).status, 400);
    for (const q of [
      '?id=main',
      '?id=zz&layout=l1',
      '?id=main&layout=zz',
      '?id=main&layout=l1&title=%ZZ',
      '?id=main&layout=l1&title=%C3%28',
      '?id=main&id=main&layout=l1',
      '?id=main&layout=l1&sign=zz',
      '?id=main&layout=l1&fontColor[title]=1_2',
      '?id=main&layout=l1&pic=nothing',
    ]) {
      const r = await same(ctx, q);
      assert.ok(r.status >= 400 && r.status < 500, `${q}: ${r.status}`);
    }
  });

  test('Accept headers: none, */*, JSON pass; the rest are negotiated as before', async () => {
    for (const accept of ['*/*', 'application/json', 'application/*', 'text/html', 'text/html, */*;q=0.1']) {
      await same(ctx, '?id=main&layout=l1&title=A', { Accept: accept });
    }
  });

  test('an unexpected failure is a 500 with the same body, logged as a defect', async () => {
    const ctl = ctx.svc.controller();
    const apply = ctl.apply;
    ctl.apply = async () => {
      throw new Error('boom');
    };
    try {
      ctx.lines.length = 0;
      const fast = await raw(ctx.port, '/mlds?id=main&layout=l1');
      const koa = await raw(ctx.port, '/mlds/?id=main&layout=l1');
      assert.deepEqual(fast, koa);
      assert.equal(fast.status, 500);
      assert.deepEqual(
        ctx.lines.map((l) => [l.msg, l.status]),
        [
          ['request failed', undefined],
          ['request', 500],
          ['request failed', undefined],
          ['request', 500],
        ],
      );
    } finally {
      ctl.apply = apply;
    }
  });

  test('not ready: 503 with Retry-After', async () => {
    ctx.ready = false;
    try {
      const r = await same(ctx, '?id=main&layout=l1&title=B');
      assert.equal(r.status, 503);
      assert.ok(r.headers.includes('Retry-After: 1'), r.headers.join('; '));
    } finally {
      ctx.ready = true;
    }
  });

  test('HEAD validates without applying; other methods are refused', async () => {
    const head = await raw(ctx.port, '/mlds?id=main&layout=l1&title=H', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal((await raw(ctx.port, '/mlds?id=main&layout=l1', {}, 'POST')).status, 405);
    const before = ctx.svc.controller().state('main').areas.get('title')?.text;
    assert.notEqual(before, 'Head');
    assert.equal((await same(ctx, '?id=main&layout=l1&title=Head', {}, 'HEAD')).status, 200);
    assert.equal((await same(ctx, '?id=main&layout=zz&title=Head', {}, 'HEAD')).status, 400);
    assert.equal(ctx.svc.controller().state('main').areas.get('title')?.text, before);
    const post = await same(ctx, '?id=main&layout=l1&title=Head', {}, 'POST');
    assert.equal(post.status, 405);
    assert.ok(post.headers.includes('Allow: GET, HEAD'), post.headers.join('; '));
  });
});

describe('/mlds ahead of koa and through its router, with keys and a rate limit', () => {
  const ctx = setup({
    ...baseConfig(),
    rateLimit: '6',
    security: { apiKey: 'api-key-0123456789abcdef', adminKey: 'admin-key-0123456789abcdef' },
  });

  test(
    'the API key or the admin key, in the query or the header, ' +
      'opens it; no key or a wrong one is refused as before',
    async () => {
      // A fresh one-second window for each step of four requests: six a second are allowed.
      // the passing of time is what is tested: the rate limit's one-second window.
      const pause = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
      await pause();
      assert.equal((await same(ctx, '?id=main&layout=l1&title=K&key=api-key-0123456789abcdef')).status, 200);
      assert.equal(
        (await same(ctx, '?id=main&layout=l1&title=K', { 'X-API-Key': 'admin-key-0123456789abcdef' })).status,
        200,
      );
      await pause();
      assert.equal((await same(ctx, '?id=main&layout=l1&title=K')).status, 401);
      assert.equal((await same(ctx, '?id=main&layout=l1&title=K&key=wrong')).status, 401);
    },
  );

  test('requests through either path share the rate limit window', async () => {
    const q = '?id=main&layout=l1&title=R&key=api-key-0123456789abcdef';
    let statuses: number[] = [];
    // A machine so loaded that eight requests took a second would have started a new window:
    // such a round is tried again (each starts at a fresh second), never skipped.
    for (let round = 0; round < 5; round++) {
      // the passing of time is what is tested: each round starts a fresh one-second window.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
      const second = Math.floor(Date.now() / 1000);
      statuses = [];
      for (const p of ['/mlds', '/mlds/', '/mlds', '/mlds/', '/mlds', '/mlds/', '/mlds', '/mlds/'])
        statuses.push((await raw(ctx.port, p + q)).status);
      if (Math.floor(Date.now() / 1000) === second) break;
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
  });
});

describe('the early listener', () => {
  const ran: string[] = [];
  const step =
    (name: string): Middleware =>
    async (_ctx, next) => {
      ran.push(name);
      await next();
    };
  const app = new Koa();
  const reported: string[] = [];
  app.on('error', (err: Error) => reported.push(err.message));
  const first = [step('before 1'), step('before 2')];
  for (const m of first) app.use(m);
  app.use(step('koa only'));
  const own: Record<string, Middleware[]> = {
    '/x': [
      step('route'),
      async (ctx) => {
        ctx.set('X-Route', 'x');
        ctx.body = `x ${ctx.querystring}`;
      },
    ],
    '/none': [async () => undefined],
  };
  app.use(async (ctx) => {
    ran.push('koa route');
    ctx.body = 'through koa';
  });
  let server: Server;
  let port: number;
  before(async () => {
    server = http.createServer(earlyListener(app, first, (path) => own[path])).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  test("runs the app list, then the route, on koa's context; the rest goes to koa", async () => {
    ran.length = 0;
    const r = await raw(port, '/x?a=1');
    assert.deepEqual(ran, ['before 1', 'before 2', 'route']);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'x a=1');
    assert.deepEqual(r.headers, ['X-Route: x', 'Content-Type: text/plain; charset=utf-8', 'Content-Length: 5']);
    ran.length = 0;
    assert.equal((await raw(port, '/x/?a=1')).body, 'through koa');
    assert.equal((await raw(port, '/X?a=1')).body, 'through koa');
    const throughKoa = ['before 1', 'before 2', 'koa only', 'koa route'];
    assert.deepEqual(ran, [...throughKoa, ...throughKoa]);
  });

  test('HEAD: the headers GET has, no body; a route that answers nothing is a defect (500), not a hang', async () => {
    const head = await raw(port, '/x?a=1', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.ok(head.headers.includes('Content-Length: 5'), head.headers.join('; '));
    assert.equal((await raw(port, '/none')).status, 500);
    assert.deepEqual(reported, ['an early route left no string body (undefined)']);
  });
});
