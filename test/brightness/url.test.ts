// brightnessUrl against a real HTTP server on loopback, polled on the injected clock: a good
// body is applied, anything else (words, out of range, too long, an error status) is a warning
// and the last good value stays; after ten minutes without a good value the schedule takes
// over, and the URL takes back when it answers again. A unit with sensorBrightness true does
// not poll.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('brightnessUrl: good and garbage bodies, hand-over and return', async () => {
  let reply: { status: number; body: string } = { status: 200, body: '70\n' };
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url!);
    res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;

  const c = baseConfig();
  const base = c.displays.main;
  c.displays = {
    lcd: { ...base, displayPort: '9001', brightnessUrl: `http://127.0.0.1:${port}/lcd.txt` },
    led: { ...base, displayPort: '9002', sensorBrightness: true, brightnessUrl: `http://127.0.0.1:${port}/led.txt` },
  };
  const sd = serviceDir(c);
  const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    const unit = async () => {
      const b = ((await get(svc, '/status')).json as Obj).components.brightness;
      return { u: b.units.find((x: Obj) => x.id === 'lcd'), url: b.urls.find((x: Obj) => x.unit === 'lcd'), b };
    };
    const poll = async (n: number) => {
      clock.advance(60_000);
      await until(() => hits.length >= n, 3000, `poll ${n}`);
      await until(
        async () => (await unit()).url.lastFetchAt === new Date(clock.now()).toISOString(),
        3000,
        'the poll handled',
      );
    };
    await until(async () => (await unit()).u.mode === 'url', 3000, 'the first poll');
    let s = await unit();
    assert.equal(s.u.brightness, 70);
    assert.match(s.u.source, new RegExp(`^brightnessUrl http://127.0.0.1:${port}/lcd.txt: 70$`));
    assert.deepEqual(hits, ['/lcd.txt'], 'the unit with sensorBrightness true does not poll its URL');
    assert.equal(s.b.urls.length, 1);

    const garbage: Array<[number, string, RegExp]> = [
      [200, 'bright', /not a brightness 0\.\.100: "bright"/],
      [200, '150', /not a brightness 0\.\.100: "150"/],
      [200, '-5', /not a brightness/],
      [200, '', /not a brightness 0\.\.100: ""/],
      [200, '5'.repeat(100), /more than 64 bytes/],
      [500, '50', /500/],
    ];
    let n = 1;
    for (const [status, body, why] of garbage) {
      reply = { status, body };
      await poll(++n);
      s = await unit();
      assert.match(s.url.warning, why, body);
      assert.match(s.url.warning, /the last good value 70 holds until/);
      assert.equal(s.u.brightness, 70, `${JSON.stringify(body.slice(0, 10))} ignored`);
      assert.equal(s.u.mode, 'url');
    }
    reply = { status: 200, body: ' 35 \r\n' };
    await poll(++n);
    s = await unit();
    assert.equal(s.u.brightness, 35);
    assert.equal(s.url.warning, undefined);

    // Ten minutes of garbage: the URL has failed; the next source down (here full brightness) takes over, visibly.
    reply = { status: 200, body: 'x' };
    for (let i = 0; i < 10; i++) await poll(++n);
    clock.advance(1000);
    await until(async () => (await unit()).u.mode === 'fixed', 3000, 'the hand-over');
    s = await unit();
    assert.equal(s.u.brightness, 100);
    assert.equal(s.u.handover.from, 'url');
    assert.equal(s.u.handover.to, 'fixed');
    assert.match(s.u.handover.reason, /not a brightness/);
    assert.ok(s.b.warnings.some((w: string) => /lcd: url failed/.test(w)));
    const info = (await get(svc, '/info')).text;
    assert.match(info, /brightnessUrl failed: /);

    reply = { status: 200, body: '60' };
    await poll(++n);
    await until(async () => (await unit()).u.mode === 'url', 3000, 'the URL back');
    s = await unit();
    assert.equal(s.u.brightness, 60);
    assert.equal(s.u.handover, undefined);
    const st = (await get(svc, '/status')).json as Obj;
    assert.equal(st.displays.find((d: Obj) => d.id === 'lcd').output.details.brightness, 60);
  } finally {
    await svc.close();
    sd.cleanup();
    server.close();
  }
});
