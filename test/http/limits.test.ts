// Every HTTP limit of docs/security.md, configured small so each is reached quickly: slow
// and silent clients are cut off with a JSON 408, a long URL gets 414, large headers 431,
// a flood 429 with Retry-After, one client cannot take every connection, and a connection
// with no traffic either way is closed. Outcomes are checked by what happens first, not by
// how long it took.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

interface Raw {
  socket: Socket;
  text(): string;
  closed: Promise<void>;
  isClosed(): boolean;
  status(): number;
}

async function open(port: number): Promise<Raw> {
  return open0(port, '127.0.0.1');
}

async function open0(port: number, localAddress: string): Promise<Raw> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let data = '';
  let closed = false;
  socket.on('data', (d: Buffer) => {
    data += d.toString('latin1');
  });
  socket.on('error', () => {
    /* resets after an answer are expected */
  });
  const gone = once(socket, 'close').then(() => {
    closed = true;
  });
  await once(socket, 'connect');
  return {
    socket,
    text: () => data,
    closed: gone,
    isClosed: () => closed,
    status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0),
  };
}

function jsonBody(raw: string): Record<string, unknown> {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

/** Sends `chunks` one every `everyMs` while the socket is open; resolves with how many went out. */
async function trickle(r: Raw, chunks: string[], everyMs: number): Promise<number> {
  let sent = 0;
  for (const c of chunks) {
    if (r.isClosed()) break;
    r.socket.write(c);
    sent++;
    // the passing of time is what is tested: a slow client's pace.
    await Promise.race([new Promise((res) => setTimeout(res, everyMs)), r.closed]);
  }
  return sent;
}

/** Whether the server closed the connection within `ms` (a generous bound, not a measurement). */
async function closedWithin(r: Raw, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    r.closed,
    new Promise((res) => {
      timer = setTimeout(res, ms);
    }),
  ]);
  clearTimeout(timer);
  return r.isClosed();
}

const limitsConfig = (limits: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  ...baseConfig(),
  limits,
  ...extra,
});

test(
  'slow and silent clients are cut off: headers by headersTimeoutMs, the body by requestTimeoutMs, idle ' +
    'keep-alive by keepAliveTimeoutMs',
  async () => {
    const sd = serviceDir(
      limitsConfig({ headersTimeoutMs: '1000', requestTimeoutMs: '2000', keepAliveTimeoutMs: '500' }),
    );
    const svc = await start(sd);
    try {
      // A header line every 200 ms for 40 s: cut off long before it finishes, with a JSON 408.
      const slow = await open(svc.port);
      const lines = ['GET /status HTTP/1.1\r\n', ...Array.from({ length: 200 }, (_, i) => `X-Slow-${i}: y\r\n`)];
      const sent = await trickle(slow, lines, 200);
      await slow.closed;
      assert.ok(sent < lines.length, `closed after ${sent} of ${lines.length} lines`);
      assert.equal(slow.status(), 408);
      assert.equal(jsonBody(slow.text()).code, 'MLDS_REQUEST_TIMEOUT');

      // Connected, never a byte: the same.
      const silent = await open(svc.port);
      await silent.closed;
      assert.equal(jsonBody(silent.text()).code, 'MLDS_REQUEST_TIMEOUT');

      // Headers on time, then a body that trickles: cut by the request limit.
      const body = await open(svc.port);
      body.socket.write('GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
      const bodySent = await trickle(
        body,
        Array.from({ length: 200 }, () => 'x'),
        200,
      );
      await body.closed;
      assert.ok(bodySent < 200, `closed after ${bodySent} of 200 body bytes`);

      // A finished request on a kept-alive connection, then nothing: closed by the server.
      const idle = await open(svc.port);
      idle.socket.write('GET /status HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.ok(await closedWithin(idle, 20_000), 'the idle connection was closed by the server');
      assert.equal(idle.status(), 200);
      // The service still answers.
      assert.equal((await get(svc, '/status')).status, 200);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test(
  'a URL over maxUrlBytes gets 414, headers over maxHeaderBytes 431, more than rateLimit requests 429 with ' +
    'Retry-After; all JSON',
  async () => {
    const sd = serviceDir(limitsConfig({ maxUrlBytes: '1000', maxHeaderBytes: '4096' }, { rateLimit: '20' }));
    const svc = await start(sd);
    try {
      const under = `/mlds?id=main&layout=l1&title=${'a'.repeat(1000 - 30)}`;
      assert.equal(under.length, 1000);
      assert.equal((await get(svc, under)).status, 200);
      const over = await get(svc, `${under}b`);
      assert.equal(over.status, 414);
      assert.equal(over.json.code, 'MLDS_URL_TOO_LONG');
      assert.match(String(over.json.message), /1001 bytes long; the limit is 1000/);

      assert.equal((await get(svc, '/status', { headers: { 'X-Pad': 'p'.repeat(3000) } })).status, 200);
      const big = await open(svc.port);
      big.socket.write(`GET /status HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(5000)}\r\n\r\n`);
      await big.closed;
      assert.equal(big.status(), 431);
      assert.equal(jsonBody(big.text()).code, 'MLDS_HEADERS_TOO_LARGE');
      assert.match(String(jsonBody(big.text()).message), /4096 bytes/);

      // At most 20 are answered in each one-second window the burst touches: a burst inside one
      // second touches two (a boundary may fall in it), so at least 5 of 45 are refused. A slower
      // burst (qemu-user: 3-4 s) touches more windows and owes fewer refusals.
      const t0 = Date.now();
      const burst = await Promise.all(Array.from({ length: 45 }, () => get(svc, '/status')));
      const windows = Math.floor((Date.now() - t0) / 1000) + 2;
      const limited = burst.filter((r) => r.status === 429);
      assert.ok(limited.length >= 45 - 20 * windows, `${limited.length} of 45 limited in ${windows} windows`);
      for (const r of limited) {
        assert.equal(r.headers.get('retry-after'), '1');
        assert.equal(r.json.code, 'MLDS_RATE_LIMITED');
      }
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test(
  'one client holds at most maxConnectionsPerClient connections (429 beyond); with all maxConnections taken ' +
    'the one waiting longest on its headers makes room',
  async () => {
    const sd = serviceDir(
      limitsConfig({ maxConnectionsPerClient: '3', maxConnections: '5', headersTimeoutMs: '30000' }),
    );
    const svc = await start(sd);
    const held: Raw[] = [];
    try {
      for (let i = 0; i < 3; i++) held.push(await open(svc.port));
      const fourth = await open(svc.port);
      await fourth.closed;
      assert.equal(fourth.status(), 429);
      assert.match(fourth.text(), /\r\nRetry-After: 1\r\n/);
      assert.equal(jsonBody(fourth.text()).code, 'MLDS_TOO_MANY_CONNECTIONS');
      // One of the three goes: there is room again.
      held.pop()!.socket.destroy();
      await until(
        async () => (await get(svc, '/status', { headers: { Connection: 'close' } })).status === 200,
        3000,
        'room for a connection',
      );

      // maxConnections counts every client: 2 held here and 3 from another loopback address
      // make 5, none of them has sent its request. A sixth from a third address is served, and
      // the connection that has waited longest (the first held here) is closed unanswered.
      const more = [
        await open0(svc.port, '127.0.0.2'),
        await open0(svc.port, '127.0.0.2'),
        await open0(svc.port, '127.0.0.2'),
      ];
      const sixth = await open0(svc.port, '127.0.0.3');
      sixth.socket.write('GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      await sixth.closed;
      assert.equal(sixth.status(), 200);
      await held[0].closed;
      assert.equal(held[0].text(), '', 'closed without an answer');
      assert.ok(
        [held[1], ...more].every((r) => !r.isClosed()),
        'the others stay open',
      );
      for (const r of more) r.socket.destroy();
    } finally {
      for (const r of held) r.socket.destroy();
      await svc.close();
      sd.cleanup();
    }
  },
);

test('with every connection busy with an answer, a new connection is closed unanswered', async () => {
  // An archive server that takes the request and never answers: /load_config waits on it.
  let asked!: () => void;
  const archiveAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const silent: Server = createHttpServer(() => asked());
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const sd = serviceDir(limitsConfig({ maxConnections: '3', maxStreams: '2' }));
  const svc = await start(sd, { archiveFetch: { timeoutMs: 20_000 } });
  const busy: Raw[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const view = await open(svc.port);
      view.socket.write('GET /screenshot?stream=1&id=main HTTP/1.1\r\nHost: x\r\n\r\n');
      await until(() => view.status() === 200, 5000, 'a live view');
      busy.push(view);
    }
    const load = await open(svc.port);
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/c.zip`;
    load.socket.write(`GET /load_config?url=${encodeURIComponent(url)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    busy.push(load);
    await archiveAsked;
    const fourth = await open0(svc.port, '127.0.0.3');
    await fourth.closed;
    assert.equal(fourth.text(), '', 'dropped without an answer');
    assert.ok(
      busy.every((r) => !r.isClosed()),
      'the connections with an answer pending stay open',
    );
  } finally {
    for (const r of busy) r.socket.destroy();
    await svc.close();
    silent.closeAllConnections();
    silent.close();
    sd.cleanup();
  }
});

test('a connection with no traffic either way for idleTimeoutMs is closed, even with an answer pending', async () => {
  // An archive server that accepts and never answers: /load_config waits on it.
  const silent: Server = createHttpServer(() => undefined);
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const sd = serviceDir(limitsConfig({ idleTimeoutMs: '1000' }));
  const svc = await start(sd, { archiveFetch: { timeoutMs: 5000 } });
  try {
    const r = await open(svc.port);
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/c.zip`;
    r.socket.write(`GET /load_config?url=${encodeURIComponent(url)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.ok(await closedWithin(r, 4500), 'closed by the server before the fetch limit');
    assert.equal(r.text(), '', 'nothing was answered');
  } finally {
    await svc.close();
    silent.closeAllConnections();
    silent.close();
    sd.cleanup();
  }
});
