// Priority levels that hold a display and give it back, keep=1 partial updates,
// levels across restarts, and what the poller, crons and HTTP leave in shown.log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, decode, get, near, serviceDir, start, until, type Pixels } from '../helpers/service.js';
import { sink } from '../helpers/sink.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const display = async (svc: { url: string }): Promise<Obj> => ((await get(svc, '/status')).json.displays as Obj[])[0];
/** Undefined while the display shows a layout without it (before the first command). */
const areaIfShown = (d: Obj, id: string): Obj | undefined => (d.areas as Obj[]).find((a) => a.id === id);
const area = (d: Obj, id: string): Obj => areaIfShown(d, id)!;
const shot = async (svc: { url: string }): Promise<Pixels> =>
  decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
/** Layout l1 has a blue title band; l2 has none. */
const showsL1 = async (svc: { url: string }): Promise<boolean> => near((await shot(svc)).at(190, 10), [0, 0, 255]);
const whiteIn = (p: Pixels, x0: number, x1: number, y0: number, y1: number): boolean => {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (near(p.at(x, y), [255, 255, 255], 60)) return true;
  return false;
};

test(
  'a poller at priority 0 never overwrites an HTTP notice ' + 'at 5; its latest content shows when the notice expires',
  async () => {
    const feed = await sink();
    const fb = await sink();
    let body = 'id=main&layout=l1&title=Poll+one&inumber=p1';
    feed.answer = (_r, res) => res.end(body);
    const c = baseConfig();
    c.displays.main.confirmIp = '127.0.0.1';
    c.displays.main.confirmPort = String(fb.port);
    c.pollers = [{ url: feed.url('/feed'), interval: '2' }];
    const sd = serviceDir(c);
    const clock = new FakeClock(T0);
    const svc = await start(sd, { clock, recheckSeconds: 0 });
    try {
      await until(async () => areaIfShown(await display(svc), 'title')?.text === 'Poll one', 5000, 'the first poll');
      await until(() => showsL1(svc), 5000, 'layout l1 drawn');
      const notice = await get(svc, '/mlds?id=main&layout=l2&other=Alert&priority=5&expires=5&inumber=n1');
      assert.equal(notice.status, 200);
      await until(
        async () => !(await showsL1(svc)) && whiteIn(await shot(svc), 0, 200, 0, 100),
        5000,
        'the notice drawn',
      );

      // Polls go on underneath: answered, stored, not shown.
      body = 'id=main&layout=l1&title=Poll+two&inumber=p2';
      clock.advance(2000);
      await until(async () => (await display(svc)).lastCommand.query.includes('two'), 5000, 'the second poll applied');
      const nextPoll = () => ((svc.api.status().components as Obj).pollers.pollers[0] as Obj).nextFetchAt;
      await until(() => nextPoll() !== undefined, 5000, 'the next poll due on the clock');
      body = 'id=main&layout=l1&title=Poll+three&inumber=p3';
      clock.advance(2000);
      await until(async () => (await display(svc)).lastCommand.query.includes('three'), 5000, 'the third poll applied');
      let d = await display(svc);
      assert.equal(d.layout, 'l2', 'the notice holds through the polls');
      assert.deepEqual(
        d.layers.map((l: Obj) => [l.priority, l.layout, l.source]),
        [
          [5, 'l2', 'http'],
          [0, 'l1', 'poller'],
        ],
      );
      assert.equal(d.layers[0].expiresAt, new Date(T0 + 5000).toISOString());
      assert.equal(d.layers[1].expiresAt, null);
      assert.equal(await showsL1(svc), false);
      assert.match(
        (await get(svc, '/info')).text,
        /Priority levels.*data-priority="5"><b>5<\/b> l2.*on show.*data-priority="0"><b>0<\/b> l1.*underneath/s,
      );
      // p2 was replaced before it was ever shown: superseded, which the feedback address hears as executed.
      await until(() => fb.got.some((r) => r.url === '/mlds?confirm=1&inumber=p2'), 5000, 'confirm=1 for p2');
      assert.ok(!fb.got.some((r) => r.url === '/mlds?confirm=0&inumber=p2'));
      assert.ok(!fb.got.some((r) => r.url.endsWith('inumber=p3')), 'p3 is not confirmed while underneath');

      clock.advance(1000);
      await until(() => showsL1(svc), 5000, 'the poll back on screen');
      d = await display(svc);
      assert.equal(area(d, 'title').text, 'Poll three', 'the latest poll, not the one the notice covered');
      assert.deepEqual(
        d.layers.map((l: Obj) => l.priority),
        [0],
      );
      assert.ok(whiteIn(await shot(svc), 0, 200, 0, 50), 'the poll title is drawn');
      await until(
        () => fb.got.some((r) => r.url === '/mlds?confirm=1&inumber=p3'),
        5000,
        'confirm=1 for p3 once written',
      );
      assert.ok(
        fb.got.some((r) => r.url === '/mlds?confirm=1&inumber=n1'),
        'the notice was confirmed when written',
      );
    } finally {
      await svc.close();
      feed.close();
      fb.close();
      sd.cleanup();
    }
  },
);

test('keep=1 changes one area of three; the other two keep their pixels and their remaining ttl', async () => {
  const c = baseConfig();
  const l1 = c.displays.main.layout.l1;
  l1.sign.ttl = '20';
  l1.pic.ttl = '30';
  const sd = serviceDir(c);
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=One&sign=b&pic=bus')).status, 200);
    await until(async () => whiteIn(await shot(svc), 0, 200, 0, 50), 5000, 'the first title');
    const before = await shot(svc);
    clock.advance(5000);
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=&keep=1')).status, 200);
    await until(async () => !whiteIn(await shot(svc), 0, 200, 0, 50), 5000, 'the title emptied');
    const after = await shot(svc);
    for (let y = 50; y < 100; y += 3)
      for (let x = 0; x < 200; x += 3) {
        assert.deepEqual(after.at(x, y), before.at(x, y), `sign and picture unchanged at ${x},${y}`);
      }
    const d = await display(svc);
    assert.equal(area(d, 'sign').text, 'Beta');
    assert.equal(area(d, 'sign').ttlLeftSeconds, 15, 'the remaining ttl, not a new one');
    assert.equal(area(d, 'pic').ttlLeftSeconds, 25);
    assert.equal(area(d, 'sign').since, new Date(T0).toISOString());
    // What the boot replay would apply holds the kept areas.
    const saved = svc.runtime.context.savedRequests().main;
    assert.match(saved, /sign=b/);
    assert.match(saved, /pic=bus/);
    clock.advance(15_000);
    assert.equal(svc.controller().state('main').areas.get('sign')!.text, 'Def', 'the kept ttl ran out on time');

    // Without keep, areas not named show their defaults.
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Two')).status, 200);
    assert.equal(area(await display(svc), 'pic').source, 'none');
    for (const bad of ['keep=2', 'keep=1&keep=1']) {
      const r = await get(svc, `/mlds?id=main&layout=l1&${bad}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.json.code, 'MLDS_BAD_CONTROL_OPTION');
      assert.equal(r.json.field, 'keep');
    }
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test('priority=p&layout= clears level p at once; malformed levels are refused', async () => {
  const sd = serviceDir(baseConfig());
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    await get(svc, '/mlds?id=main&layout=l1&title=Base');
    assert.equal((await get(svc, '/mlds?id=main&layout=l2&other=Alert&priority=3&expires=600')).status, 200);
    await until(async () => !(await showsL1(svc)), 5000, 'the alert drawn');
    const r = await get(svc, '/mlds?id=main&priority=3&layout=');
    assert.equal(r.status, 200);
    assert.deepEqual(
      (await display(svc)).layers.map((l: Obj) => l.priority),
      [0],
    );
    await until(() => showsL1(svc), 5000, 'the base back without waiting for the expiry');
    assert.equal(clock.pending(), 0, 'no timer left for the cleared level');
    const refused: Array<[string, string, string]> = [
      ['id=main&layout=l2&priority=3', 'MLDS_BAD_CONTROL_OPTION', 'expires'],
      ['id=main&layout=l2&expires=5', 'MLDS_BAD_CONTROL_OPTION', 'expires'],
      ['id=main&layout=l2&priority=10&expires=5', 'MLDS_BAD_CONTROL_OPTION', 'priority'],
      ['id=main&layout=l2&priority=1&expires=86401', 'MLDS_BAD_CONTROL_OPTION', 'expires'],
      ['id=main&layout=l2&priority=1&expires=0', 'MLDS_BAD_CONTROL_OPTION', 'expires'],
      ['id=main&priority=0&layout=', 'MLDS_MISSING_LAYOUT', 'layout'],
      ['id=main&priority=2&layout=&title=x', 'MLDS_BAD_CONTROL_OPTION', 'title'],
    ];
    for (const [q, code, field] of refused) {
      const res = await get(svc, `/mlds?${q}`);
      assert.equal(res.status, 400, q);
      assert.deepEqual([res.json.code, res.json.field], [code, field], q);
    }
    assert.equal((await display(svc)).layout, 'l1', 'nothing refused changed the display');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test(
  'a restart restores a priority message with its ' + 'remaining time; one that expired meanwhile is not shown',
  async () => {
    const sd = serviceDir(baseConfig());
    const clock = new FakeClock(T0);
    let svc = await start(sd, { clock, recheckSeconds: 0 });
    try {
      await get(svc, '/mlds?id=main&layout=l1&title=Base');
      await get(svc, '/mlds?id=main&layout=l2&other=Long&priority=5&expires=60');
      await get(svc, '/mlds?id=main&layout=l2&other=Short&priority=7&expires=10');
      assert.equal((await display(svc)).layers.length, 3);
      clock.advance(5000);
      await svc.close();

      // Down for 20 s: the priority-7 message ended meanwhile; the priority-5 one has 35 s left.
      const later = new FakeClock(T0 + 25_000);
      svc = await start(sd, { clock: later, recheckSeconds: 0 });
      let d = await display(svc);
      assert.deepEqual(
        d.layers.map((l: Obj) => [l.priority, l.layout, l.expiresAt]),
        [
          [5, 'l2', new Date(T0 + 60_000).toISOString()],
          [0, 'l1', null],
        ],
      );
      assert.equal(area(d, 'other').text, 'Long');
      await until(async () => !(await showsL1(svc)), 5000, 'the restored message drawn');
      later.advance(34_999);
      assert.equal((await display(svc)).layout, 'l2');
      later.advance(1);
      d = await display(svc);
      assert.equal(d.layout, 'l1');
      assert.equal(area(d, 'title').text, 'Base');
      await until(() => showsL1(svc), 5000, 'the base drawn after the restored expiry');
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('/history lists each change of what an area shows, with its source, newest first, and no key', async () => {
  const c = baseConfig();
  c.security = { apiKey: 'secret-key-1234' };
  c.crons = [
    { type: 'data', cron: '0 * * * * *', value: 'id=main&layout=l1&title=From+cron&keep=1&key=secret-key-1234' },
  ];
  const sd = serviceDir(c);
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0, logDir: `${sd.dir}/logs` });
  const h = (q: string) => get(svc, `/history?${q}`, { headers: { 'X-API-Key': 'secret-key-1234' } });
  try {
    await get(svc, '/mlds?id=main&layout=l1&title=Hello&sign=a&inumber=i1&key=secret-key-1234');
    clock.advance(10_000);
    await get(svc, '/mlds?id=main&layout=l2&other=Notice&priority=4&expires=20&key=secret-key-1234');
    clock.advance(20_000);
    // The notice expired (the base shows again), then the cron changed the title only.
    clock.advance(30_000);
    await until(() => svc.controller().state('main').areas.get('title')!.text === 'From cron', 5000, 'the cron');
    const res = await h('id=main');
    assert.equal(res.status, 200);
    assert.ok(!res.text.includes('secret-key-1234'), 'no key in the history');
    const e = res.json.entries as Obj[];
    const rows = e.map((x) => [x.area, x.value, x.source, x.priority, x.start]);
    const at = (ms: number) => new Date(T0 + ms).toISOString();
    // Lines of one change are written in the layout's area order: newest first reverses them.
    assert.deepEqual(rows, [
      ['title', 'From cron', 'cron', 0, at(60_000)],
      ['pic', null, 'http', 0, at(30_000)],
      ['sign', 'a', 'http', 0, at(30_000)],
      ['title', 'Hello', 'http', 0, at(30_000)],
      ['other', 'Notice', 'http', 4, at(10_000)],
      ['pic', null, 'http', 0, at(0)],
      ['sign', 'a', 'http', 0, at(0)],
      ['title', 'Hello', 'http', 0, at(0)],
    ]);
    assert.equal(e[3].end, at(60_000), 'ended when the cron replaced it');
    assert.equal(e[2].end, null, 'still on show');
    assert.equal(e[4].end, at(30_000), 'the notice ended when it expired');
    assert.equal(e[7].end, at(10_000), 'the base ended when the notice covered it');
    assert.equal(e[7].inumber, 'i1');
    assert.equal(((await h('id=main&limit=2')).json.entries as Obj[]).length, 2);
    assert.equal(((await h(`id=main&since=${at(30_000)}`)).json.entries as Obj[]).length, 4);
    for (const [q, field] of [
      ['', 'id'],
      ['id=main&limit=1001', 'limit'],
      ['id=main&since=yesterday', 'since'],
      ['id=nope', 'id'],
    ]) {
      const r = await h(q);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.field, field, q);
    }
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test("a poller's priority, expires and keep join its commands; the body's own win", async () => {
  const feed = await sink();
  let body = 'id=main&layout=l1&title=Feed&sign=b';
  feed.answer = (_r, res) => res.end(body);
  const c = baseConfig();
  c.pollers = [{ url: feed.url('/a'), interval: '10', priority: '3', keep: true }];
  const sd = serviceDir(c);
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    await until(async () => (await display(svc)).layers.length === 1, 5000, 'the first poll');
    let d = await display(svc);
    // (The boot replay may apply the level the first fetch saved once more, as `replay`.)
    assert.deepEqual(
      d.layers.map((l: Obj) => [l.priority, l.expiresAt]),
      [[3, new Date(T0 + 30_000).toISOString()]],
      'expires defaults to 3 intervals',
    );
    // keep=1 from the poller: the next body names the title only, the sign stays.
    body = 'id=main&layout=l1&title=Feed+two';
    clock.advance(10_000);
    await until(async () => areaIfShown(await display(svc), 'title')?.text === 'Feed two', 5000, 'the second poll');
    d = await display(svc);
    assert.equal(area(d, 'sign').text, 'Beta');
    assert.deepEqual([d.layers[0].source, d.layers[0].expiresAt], ['poller', new Date(T0 + 40_000).toISOString()]);
    // An unchanged body renews the level.
    clock.advance(10_000);
    await until(
      async () => (await display(svc)).layers[0].expiresAt === new Date(T0 + 50_000).toISOString(),
      5000,
      'the renewal',
    );
    body = 'id=main&layout=l1&title=Own&priority=6&expires=7';
    clock.advance(10_000);
    await until(async () => (await display(svc)).layers[0].priority === 6, 5000, "the body's own level");
    assert.equal((await display(svc)).layers[0].expiresAt, new Date(T0 + 37_000).toISOString());
  } finally {
    await svc.close();
    feed.close();
    sd.cleanup();
  }
});

test(
  'an area named priority, keep or expires is a configuration ' + 'fault naming it; so are poller levels out of range',
  () => {
    for (const name of ['priority', 'keep', 'expires']) {
      const c = baseConfig();
      c.displays.main.layout.l2[name] = { coordinates: '0 0 9 9', type: 'text' };
      const sd = serviceDir(c);
      try {
        assert.throws(
          () => loadConfig(sd.configFile),
          (err: unknown) =>
            err instanceof ConfigError &&
            err.faults.some(
              (f) =>
                f.path === `/displays/main/layout/l2/${name}` &&
                f.message.includes(`"${name}" is a reserved query name`),
            ),
        );
      } finally {
        sd.cleanup();
      }
    }
    const pollerFaults: Array<[Obj, string]> = [
      [{ expires: '30' }, '/pollers/0/expires'],
      [{ priority: '10', expires: '30' }, '/pollers/0/priority'],
      [{ keep: 'yes' }, '/pollers/0/keep'],
    ];
    for (const [extra, where] of pollerFaults) {
      const c = baseConfig();
      c.pollers = [{ url: 'http://127.0.0.1:8080/feed', interval: '10', ...extra }];
      const sd = serviceDir(c);
      try {
        assert.throws(
          () => loadConfig(sd.configFile),
          (err: unknown) => err instanceof ConfigError && err.faults.some((f) => f.path === where),
          JSON.stringify(extra),
        );
      } finally {
        sd.cleanup();
      }
    }
  },
);
