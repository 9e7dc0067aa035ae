// A command is confirmed `shown` only when a frame that reached the output carried its
// content; content replaced before any frame carried it is `superseded` (confirmed 1, counted).
// The controller runs against a frame loop the test steps by hand (renders, and which frame
// the output took), then the whole service takes a burst over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { Controller, type Outcome } from '../../src/control/controller.js';
import { StateStore } from '../../src/control/store.js';
import type { FrameFate } from '../../src/frame.js';
import { supersededCount } from '../../src/control/counters.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { sink } from '../helpers/sink.js';

/**
 * The frame loop's side of a redraw: renders number frames, the output takes one (and the older ones it never saw are
 * dropped).
 */
class SteppedLoop {
  rendered = 0;
  private waiting: Array<(f: FrameFate) => void> = [];
  private frames = new Map<number, Array<(f: FrameFate) => void>>();
  redraw = (): Promise<FrameFate> => new Promise((resolve) => this.waiting.push(resolve));
  render(): number {
    this.frames.set(++this.rendered, this.waiting);
    this.waiting = [];
    return this.rendered;
  }
  /** The output took frame n: its waiters and those of the older frames it replaced learn its fate. */
  out(n: number, ok = true): void {
    for (const [k, ws] of this.frames) {
      if (k > n) continue;
      this.frames.delete(k);
      for (const w of ws) w({ ok, frame: n });
    }
  }
}

function rig() {
  const sd = serviceDir(baseConfig());
  const loop = new SteppedLoop();
  const confirmed: Array<[number, string]> = [];
  const clock = new FakeClock();
  const ctl = new Controller(loadConfig(sd.configFile), {
    clock,
    store: new StateStore(sd.stateDir),
    log: { info() {}, warn() {} },
    redraw: loop.redraw,
    rendered: () => loop.rendered,
    confirm: (_d, c, n) => confirmed.push([c, n]),
    preload: async () => undefined,
  });
  const settled = new Map<string, Outcome>();
  const send = async (query: string) => {
    const r = await ctl.apply(`id=main&${query}`, 'http');
    void r.written.then((o) => settled.set(r.inumber!, o));
  };
  const flush = () => new Promise((r) => setImmediate(r));
  return {
    sd,
    loop,
    clock,
    confirmed,
    settled,
    send,
    flush,
    done: () => {
      ctl.dispose();
      sd.cleanup();
    },
  };
}

test(
  'two commands before a frame: the first is superseded, ' + 'the second shown; both confirmed 1 and the first counted',
  async () => {
    const r = rig();
    try {
      const before = supersededCount();
      await r.send('layout=l1&title=First&inumber=a');
      await r.send('layout=l1&title=Second&inumber=b');
      r.loop.out(r.loop.render());
      await r.flush();
      assert.deepEqual(Object.fromEntries(r.settled), { a: 'superseded', b: 'shown' });
      assert.deepEqual(r.confirmed.sort(), [
        [1, 'a'],
        [1, 'b'],
      ]);
      assert.equal(supersededCount() - before, 1);
    } finally {
      r.done();
    }
  },
);

test('a frame rendered with the content goes out after the next command replaced it: shown', async () => {
  const r = rig();
  try {
    await r.send('layout=l1&title=First&inumber=a');
    const first = r.loop.render();
    await r.send('layout=l1&title=Second&inumber=b');
    r.loop.out(first);
    await r.flush();
    assert.equal(r.settled.get('a'), 'shown');
    assert.equal(r.settled.has('b'), false, 'b waits for a frame of its own');
    r.loop.out(r.loop.render());
    await r.flush();
    assert.equal(r.settled.get('b'), 'shown');
  } finally {
    r.done();
  }
});

test('the frame that held the content is replaced by a newer one before the output took it: superseded', async () => {
  const r = rig();
  try {
    await r.send('layout=l1&title=First&inumber=a');
    r.loop.render();
    await r.send('layout=l1&title=Second&inumber=b');
    r.loop.out(r.loop.render());
    await r.flush();
    assert.deepEqual(Object.fromEntries(r.settled), { a: 'superseded', b: 'shown' });
  } finally {
    r.done();
  }
});

test('content still on show goes out with the next command: kept areas (keep=1) and a value sent again', async () => {
  const r = rig();
  try {
    await r.send('layout=l1&title=Kept&sign=a&inumber=a');
    await r.send('layout=l1&title=Other&keep=1&inumber=b');
    await r.send('layout=l1&title=Other&sign=b&inumber=c');
    r.loop.out(r.loop.render());
    await r.flush();
    // b's title was sent again by c; a's sign was kept by b and replaced by c.
    assert.deepEqual(Object.fromEntries(r.settled), { a: 'superseded', b: 'shown', c: 'shown' });
  } finally {
    r.done();
  }
});

test(
  'a command that also names an unchanged area is superseded ' + 'when its other value was replaced before any frame',
  async () => {
    const r = rig();
    try {
      await r.send('layout=l1&sign=a&title=One&inumber=a');
      await r.send('layout=l1&sign=a&title=Two&inumber=b');
      await r.send('layout=l1&sign=a&title=Two&inumber=c');
      r.loop.out(r.loop.render());
      await r.flush();
      // The frame held a's sign but not its title; b's values are all on show (c sent them again).
      assert.deepEqual(Object.fromEntries(r.settled), { a: 'superseded', b: 'shown', c: 'shown' });
    } finally {
      r.done();
    }
  },
);

test('covered by a higher level before any frame: it waits, and is shown once the level above ends', async () => {
  const r = rig();
  try {
    await r.send('layout=l1&title=Base&inumber=a');
    await r.send('layout=l2&other=Notice&priority=5&expires=1&inumber=n');
    r.loop.out(r.loop.render());
    await r.flush();
    assert.deepEqual(Object.fromEntries(r.settled), { n: 'shown' });
    r.clock.advance(1000);
    r.loop.out(r.loop.render());
    await r.flush();
    assert.equal(r.settled.get('a'), 'shown');
  } finally {
    r.done();
  }
});

test(
  'a failed write: the command it carried is not shown ' + '(confirm 0); the one it replaced stays superseded',
  async () => {
    const r = rig();
    try {
      await r.send('layout=l1&title=First&inumber=a');
      await r.send('layout=l1&title=Second&inumber=b');
      r.loop.out(r.loop.render(), false);
      await r.flush();
      assert.deepEqual(Object.fromEntries(r.settled), { a: 'superseded', b: 'not shown' });
      assert.deepEqual(r.confirmed.sort(), [
        [0, 'b'],
        [1, 'a'],
      ]);
    } finally {
      r.done();
    }
  },
);

test(
  'a burst over HTTP: every command confirmed 1 at the feedback address, at most one shown per frame sent, ' +
    'the rest counted superseded on /status and /metrics',
  async (t) => {
    const fb = await sink();
    const c = baseConfig();
    c.displays.main.confirmIp = '127.0.0.1';
    c.displays.main.confirmPort = String(fb.port);
    const sd = serviceDir(c);
    const svc = await start(sd, { feedback: { firstDelayMs: 10 } });
    try {
      type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      const status = async () => (await get(svc, '/status')).json as Obj;
      await get(svc, '/mlds?id=main&layout=l1&title=Start');
      await until(async () => (await status()).displays[0].frames.sent >= 1, 3000, 'the first frame');
      const s0 = await status();
      const N = 300;
      // 50 connections at once (a client may hold at most 256), six commands each.
      const answers: number[] = [];
      await Promise.all(
        Array.from({ length: 50 }, async (_, w) => {
          for (let i = w; i < N; i += 50)
            answers.push((await get(svc, `/mlds?id=main&layout=l1&title=Burst+${i}&inumber=h${i}`)).status);
        }),
      );
      assert.deepEqual(answers, new Array(N).fill(200));
      await until(
        () => fb.got.filter((g) => /inumber=h\d+$/.test(g.url)).length === N,
        20_000,
        'a confirmation of every command',
      );
      assert.deepEqual(
        fb.got.filter((g) => !g.url.startsWith('/mlds?confirm=1&')).map((g) => g.url),
        [],
        'all executed',
      );
      const s1 = await status();
      const frames = s1.displays[0].frames.sent - s0.displays[0].frames.sent;
      const superseded = s1.commands.superseded - s0.commands.superseded;
      t.diagnostic(`${N} commands: ${frames} frames sent, ${superseded} superseded`);
      assert.ok(frames < N, `${frames} frames for ${N} commands: the burst was drawn together`);
      assert.ok(superseded >= N - frames, `${superseded} superseded with ${frames} frames for ${N} commands`);
      assert.ok(superseded < N, 'the last one was shown');
      const metrics = (await get(svc, '/metrics')).text;
      assert.match(metrics, new RegExp(`^mlds_commands_superseded_total ${s1.commands.superseded}$`, 'm'));
    } finally {
      await svc.close();
      fb.close();
      sd.cleanup();
    }
  },
);
