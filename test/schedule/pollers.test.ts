import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { resolvePointer } from '../../src/schedule/json-pointer.js';
import type { PollerStatus } from '../../src/schedule/pollers.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, decode, get, near, serviceDir, start, until } from '../helpers/service.js';
import { sink } from '../helpers/sink.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const poller = async (svc: { url: string }): Promise<PollerStatus> =>
  ((await get(svc, '/status')).json.components as Obj).pollers.pollers[0];
const display = async (svc: { url: string }): Promise<Obj> => ((await get(svc, '/status')).json.displays as Obj[])[0];
const area = (d: Obj, id: string) => (d.areas as Obj[]).find((a) => a.id === id)!;

test('a poller applies its body, skips an unchanged one, applies a changed one', async () => {
  const far = await sink();
  let body = 'id=main&layout=l1&title=Polled+one\n';
  far.answer = (_r, res) => res.end(body);
  const c = baseConfig();
  c.pollers = [{ url: far.url('/cmd?key=abcdefgh'), interval: '5' }];
  const sd = serviceDir(c);
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    // The first fetch happens at start.
    await until(async () => (await poller(svc)).lastResult === 'applied', 5000, 'the first body');
    let d = await display(svc);
    // The boot replay may run after this first fetch and apply the same (newest) command again as `replay`.
    assert.equal(d.lastCommand.query, 'id=main&layout=l1&title=Polled%20one');
    assert.equal(area(d, 'title').text, 'Polled one');
    await until(
      async () =>
        near((await decode((await get(svc, '/screenshot?id=main&format=png')).bytes)).at(190, 10), [0, 0, 255]),
      5000,
      'layout l1 on screen',
    );
    let p = await poller(svc);
    assert.equal(p.url, `http://127.0.0.1:${far.port}/cmd?…`, 'no query value on /status');
    assert.deepEqual(
      [p.lastFetchAt, p.nextFetchAt, p.backoffSeconds],
      [new Date(T0).toISOString(), new Date(T0 + 5000).toISOString(), 0],
    );

    clock.advance(4999);
    // A timer due by now has fired inside advance(), and a fetch starting takes its time and wait at once.
    p = await poller(svc);
    assert.deepEqual(
      [p.lastFetchAt, p.nextFetchAt],
      [new Date(T0).toISOString(), new Date(T0 + 5000).toISOString()],
      'no fetch started before its interval',
    );
    assert.equal(far.got.length, 1, 'not before its interval');
    clock.advance(1);
    await until(() => far.got.length === 2, 5000, 'the second fetch');
    await until(async () => (await poller(svc)).lastResult === 'unchanged', 5000, 'the unchanged body');
    d = await display(svc);
    assert.equal(d.lastCommand.at, new Date(T0).toISOString(), 'not applied again');

    body = 'id=main&layout=l1&title=Polled+two';
    clock.advance(5000);
    await until(async () => area(await display(svc), 'title').text === 'Polled two', 5000, 'the changed body');
    p = await poller(svc);
    assert.equal(p.lastResult, 'applied');
    assert.equal(p.lastFetchAt, new Date(T0 + 10_000).toISOString());

    // A faulty body shows like a faulty request and is not applied again while it stays.
    body = 'id=main&layout=nope';
    clock.advance(5000);
    await until(async () => (await poller(svc)).lastResult === 'fault', 5000, 'the faulty body');
    assert.equal((await display(svc)).lastFault.code, 'MLDS_UNKNOWN_LAYOUT');
    clock.advance(5000);
    await until(() => far.got.length === 5, 5000, 'the fifth fetch');
    await until(async () => (await poller(svc)).nextFetchAt !== undefined, 5000, 'the fifth body handled');
    assert.equal((await poller(svc)).lastResult, 'fault', 'still faulty, not re-applied');
    assert.equal(area(await display(svc), 'title').text, 'Polled two', 'the screen keeps the last good command');
    assert.match((await get(svc, '/info')).text, /data-component="pollers"/);
  } finally {
    await svc.close();
    far.close();
    sd.cleanup();
  }
});

test('a poller maps a JSON response with RFC 6901 pointers; a missing pointer leaves its area out', async () => {
  const far = await sink();
  far.answer = (_r, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ departures: [{ 'dest/name': 'Gdańsk Główny', platform: 3 }], status: { text: null } }));
  };
  const c = baseConfig();
  c.pollers = [
    {
      url: far.url('/departures.json'),
      interval: '60',
      mapper: {
        id: 'main',
        layout: 'l1',
        areas: { title: '/departures/0/dest~1name', sign: '/departures/5/platform', pic: '/status' },
      },
    },
  ];
  const sd = serviceDir(c);
  const svc = await start(sd, { clock: new FakeClock(T0), recheckSeconds: 0 });
  try {
    await until(async () => (await poller(svc)).lastResult !== undefined, 5000, 'the first fetch');
    const p = await poller(svc);
    assert.equal(p.lastResult, 'applied', p.message);
    assert.match(p.message!, /left out sign, pic/);
    const d = await display(svc);
    assert.equal(d.lastCommand.query, `id=main&layout=l1&title=${encodeURIComponent('Gdańsk Główny')}`);
    assert.equal(area(d, 'title').text, 'Gdańsk Główny');
    assert.equal(area(d, 'sign').source, 'default', 'left out: its defaultValue shows');
  } finally {
    await svc.close();
    far.close();
    sd.cleanup();
  }
});

test('a poller backs off on a 500: the waits double up to 10 intervals, and it recovers', async () => {
  const far = await sink();
  const clock = new FakeClock(T0);
  const arrivals: number[] = [];
  let failing = true;
  far.answer = (_r, res) => {
    arrivals.push(clock.now());
    if (failing) {
      res.statusCode = 500;
      res.end('down');
    } else res.end('id=main&layout=l2&other=Back');
  };
  const c = baseConfig();
  c.pollers = [{ url: far.url('/cmd'), interval: '1' }];
  const sd = serviceDir(c);
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    const backoffs: number[] = [];
    for (let n = 1; n <= 6; n++) {
      await until(async () => (await poller(svc)).failures === n, 5000, `failure ${n}`);
      const p = await poller(svc);
      assert.equal(p.lastResult, 'fetch error');
      assert.match(p.message!, /HTTP 500/);
      backoffs.push(p.backoffSeconds);
      const wait = Date.parse(p.nextFetchAt!) - clock.now();
      assert.equal(wait, p.backoffSeconds * 1000);
      clock.advance(wait - 1);
      // A timer due by now has fired inside advance(), and a fetch starting takes its time and wait at once.
      const waiting = await poller(svc);
      assert.deepEqual(
        [waiting.lastFetchAt, waiting.nextFetchAt, waiting.failures],
        [p.lastFetchAt, p.nextFetchAt, n],
        `no fetch started before the backoff of failure ${n} is over`,
      );
      assert.equal(arrivals.length, n, `no fetch before the backoff of failure ${n} is over`);
      if (n === 6) failing = false;
      clock.advance(1);
    }
    assert.deepEqual(backoffs, [2, 4, 8, 10, 10, 10]);
    await until(() => arrivals.length === 7, 5000, 'the fetch after the last backoff');
    assert.deepEqual(
      arrivals.slice(1).map((t, i) => (t - arrivals[i]) / 1000),
      [2, 4, 8, 10, 10, 10],
      'seconds between fetches',
    );
    await until(async () => (await poller(svc)).lastResult === 'applied', 5000, 'the recovery');
    const p = await poller(svc);
    assert.deepEqual([p.failures, p.backoffSeconds, p.nextFetchAt], [0, 0, new Date(clock.now() + 1000).toISOString()]);
    assert.equal(area(await display(svc), 'other').text, 'Back');
  } finally {
    await svc.close();
    far.close();
    sd.cleanup();
  }
});

test(
  'pollers follow a reload: a removed one is aborted ' + 'mid-fetch and its timer cleared, a new one fetches at once',
  async () => {
    const slow = await sink();
    let aborted = false;
    slow.answer = (_r, res) => {
      res.on('close', () => {
        aborted = !res.writableEnded;
      });
    };
    const fast = await sink();
    fast.answer = (_r, res) => res.end('id=main&layout=l1&title=New+source');
    const c = baseConfig();
    c.pollers = [{ url: slow.url('/hang'), interval: '30' }];
    const sd = serviceDir(c);
    const clock = new FakeClock(T0);
    const svc = await start(sd, { clock, recheckSeconds: 0 });
    try {
      await until(() => slow.got.length === 1, 5000, 'the held fetch');
      c.pollers = [{ url: fast.url('/cmd'), interval: '30' }];
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      await until(() => aborted, 5000, 'the held fetch to be aborted');
      // Until the new poller's command lands, the layout shown may have no title area at all.
      await until(
        async () => (area(await display(svc), 'title') as Obj | undefined)?.text === 'New source',
        5000,
        'the new poller',
      );
      const pending = clock.pending();
      delete c.pollers;
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      assert.equal(((await get(svc, '/status')).json.components as Obj).pollers, undefined);
      assert.equal(clock.pending(), pending - 1, 'its timer cleared');
    } finally {
      await svc.close();
      slow.close();
      fast.close();
      sd.cleanup();
    }
  },
);

test('resolvePointer follows RFC 6901', () => {
  const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'm~n': 8, ' ': 7, '~1': 9 };
  const get = (p: string) => {
    const r = resolvePointer(doc, p);
    return r.found ? r.value : 'MISSING';
  };
  assert.equal(get(''), doc);
  assert.deepEqual(
    [get('/foo/0'), get('/'), get('/a~1b'), get('/m~0n'), get('/ '), get('/~01')],
    ['bar', 0, 1, 8, 7, 9],
  );
  assert.deepEqual(
    [get('/foo/2'), get('/foo/-'), get('/foo/01'), get('/nope'), get('/foo/0/x'), get('foo')],
    Array(6).fill('MISSING'),
  );
  assert.equal(get('/constructor'), 'MISSING', 'only own members');
});
