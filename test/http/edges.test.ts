// Requests at the edges of HTTP: what Node's parser refuses, CONNECT, floods over the rate
// limit, and an over-long inumber in a confirmation. Each still gets a JSON answer, a bounded
// echo, a bounded log.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, until, logLines } from '../helpers/service.js';
import { sink } from '../helpers/sink.js';

interface RawReply {
  status: number;
  headers: Map<string, string>;
  body: string;
  closed: boolean;
}

/** Writes `request` on a fresh loopback connection and reads until the server closes it. */
async function raw(port: number, request: string): Promise<RawReply> {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d: Buffer) => {
    data += d.toString('latin1');
  });
  socket.on('error', () => {
    /* a reset after the answer is fine; the answer is what counts */
  });
  socket.write(request);
  await Promise.race([once(socket, 'close'), new Promise((r) => setTimeout(r, 5000))]);
  const closed = socket.destroyed;
  socket.destroy();
  const [head, ...rest] = data.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), closed };
}

function assertJsonError(r: RawReply, status: number, code: string): void {
  assert.equal(r.status, status, `status line for ${code}`);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(r.headers.get('connection'), 'close');
  assert.equal(Number(r.headers.get('content-length')), Buffer.byteLength(r.body));
  const body = JSON.parse(r.body) as Record<string, unknown>;
  assert.equal(body.result, 'error');
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(r.closed, 'the server closes the connection');
}

test('CONNECT answers 405 with a JSON body instead of dropping the connection', async () => {
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    const r = await raw(svc.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    assertJsonError(r, 405, 'MLDS_METHOD_NOT_ALLOWED');
    assert.equal(r.headers.get('allow'), 'GET, HEAD');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test("errors raised by Node's HTTP parser get the JSON error body; the service keeps serving", async () => {
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    assertJsonError(
      await raw(svc.port, `GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      431,
      'MLDS_HEADERS_TOO_LARGE',
    );
    assertJsonError(
      await raw(svc.port, `GET /mlds?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      431,
      'MLDS_HEADERS_TOO_LARGE',
    );
    assertJsonError(await raw(svc.port, 'this is not http\r\n\r\n'), 400, 'MLDS_BAD_REQUEST');
    assertJsonError(await raw(svc.port, 'FROB / HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'MLDS_BAD_REQUEST');
    assertJsonError(await raw(svc.port, 'GET / HTTP/1.1\r\nBad Header\r\n\r\n'), 400, 'MLDS_BAD_REQUEST');
    // An error after a good request on the same connection: the good reply, then the JSON error.
    const both = await raw(svc.port, 'GET /status HTTP/1.1\r\nHost: x\r\n\r\nnonsense\r\n\r\n');
    assert.equal(both.status, 200);
    assert.match(both.body, /HTTP\/1\.1 400 Bad Request\r\n[^]*"code":"MLDS_BAD_REQUEST"/);
    assert.equal((await get(svc, '/status')).status, 200);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test('1,000 requests over the rate limit are logged as a few counted lines, not one line each', async () => {
  const c = baseConfig();
  c.rateLimit = '5';
  const sd = serviceDir(c);
  const logDir = path.join(sd.dir, 'logs');
  const svc = await start(sd, { logDir });
  const lines = () => logLines(logDir);
  try {
    let refused = 0;
    let sent = 0;
    while (refused < 1000) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => get(svc, '/status')));
      sent += batch.length;
      refused += batch.filter((r) => r.status === 429).length;
    }
    // The counts come out within a second of the flood; wait for all of them.
    const counted = () =>
      lines().filter((l) => l.msg === `rate limited: ${String(l.refused)} requests from ${String(l.ip)}`);
    await until(() => counted().reduce((n, l) => n + Number(l.refused), 0) === refused, 5000, 'every refusal counted');
    const all = lines();
    assert.equal(all.filter((l) => l.msg === 'request' && l.status === 429).length, 0, 'no line per refused request');
    assert.equal(all.filter((l) => l.msg === 'request').length, sent - refused, 'every served request has its line');
    const summaries = counted();
    assert.ok(
      summaries.length <= Math.ceil(sent / 5) && summaries.length < refused / 20,
      `${summaries.length} summary lines for ${refused} refusals`,
    );
    assert.ok(summaries.every((l) => l.ip === '127.0.0.1' && l.level === 40));
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test('an inumber over the 255 limit is confirmed with its first 255 characters, never whole', async () => {
  const fb = await sink();
  const got = () => fb.got.map((r) => r.url);
  const c = baseConfig();
  c.displays.main.confirmIp = '127.0.0.1';
  c.displays.main.confirmPort = String(fb.port);
  const sd = serviceDir(c);
  const svc = await start(sd, { feedback: { firstDelayMs: 10 } });
  const inumberOf = (url: string) => new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('inumber')!;
  try {
    const long = `${'7'.repeat(250)}${'x'.repeat(10_000)}`;
    const r = await get(svc, `/mlds?id=main&layout=l1&title=A&inumber=${long}`);
    assert.equal(r.json.code, 'MLDS_BAD_PARAMETER');
    await until(() => got().length === 1, 3000, 'confirm=2');
    assert.match(got()[0], /^\/mlds\?confirm=2&inumber=/);
    const echoed = inumberOf(got()[0]);
    assert.ok(echoed === long.slice(0, 255), `${echoed.length} characters echoed`);
    // A pair of UTF-16 halves is not split at the cut (encoding half of one would throw).
    const emoji = '\u{1F68C}'.repeat(200);
    await get(svc, `/mlds?id=main&layout=nope&inumber=${encodeURIComponent(emoji)}`);
    await until(() => got().length === 2, 3000, 'the second confirm=2');
    assert.equal(inumberOf(got()[1]), '\u{1F68C}'.repeat(127));
    assert.ok(svc.feedback.sent.every((s) => s.inumber.length <= 255));
  } finally {
    await svc.close();
    fb.close();
    sd.cleanup();
  }
});
