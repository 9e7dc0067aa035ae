import assert from 'node:assert/strict';
import { copyFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Frame } from '../../src/frame.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, get, nextFrame, serviceDir, start, until } from '../helpers/service.js';

/** Three displays on three virtual panels; each scrolls a long text so its unit sends frames all the time. */
function threeDisplays() {
  const c = baseConfig();
  const scrolling = (w: number) => ({
    coordinates: `0 0 ${w - 1} 49`,
    type: 'text',
    fontSize: '30',
    scrollSpeed: '0',
    backgroundColor: '0 0 80',
  });
  c.displays = {
    a: {
      ...c.displays.main,
      displayPort: '9101',
      layout: {
        l1: {
          title: scrolling(200),
          pic: { coordinates: '100 50 199 99', type: 'image', params: { logo: 'logo.png', bus: 'bus.png' } },
        },
        l2: { other: { coordinates: '0 0 199 99', type: 'text', fontSize: '40' } },
      },
    },
    b: { ...c.displays.main, displayPort: '9102', layout: { l1: { title: scrolling(200) } } },
    c: { ...c.displays.main, displayPort: '9103', layout: { l1: { title: scrolling(200) } } },
  };
  return c;
}

const LONG = 'A text far too long for two hundred pixels, so it scrolls all the time';
const isBlack = (f: Frame) => f.data.every((v, i) => i % 4 === 3 || v === 0);

test(
  'reload of one display of three: the other two keep ' + 'their unit and output and send frames throughout',
  async () => {
    const c = threeDisplays();
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      for (const id of ['a', 'b', 'c'])
        assert.equal((await get(svc, `/mlds?id=${id}&layout=l1&title=${encodeURIComponent(LONG)}`)).status, 200);
      await nextFrame(svc, 'a', 0);
      const unitsBefore = new Map(['a', 'b', 'c'].map((id) => [id, svc.runtime.unitFor(id)]));
      const runnersBefore = new Map(['b', 'c'].map((id) => [id, svc.runtime.unitFor(id)!.runner]));
      const frames: Record<string, Array<{ at: number; black: boolean }>> = { b: [], c: [] };
      const unsub = ['b', 'c'].map((id) =>
        svc.api.onFrame(id, (f) => frames[id].push({ at: performance.now(), black: isBlack(f) })),
      );
      const sentBefore = new Map(['b', 'c'].map((id) => [id, svc.runtime.unitFor(id)!.runner.health().framesSent]));

      // Display a gets a new background for its title; b and c are untouched.
      const next = structuredClone(c);
      next.displays.a.layout.l1.title.backgroundColor = '0 120 0';
      writeFileSync(sd.configFile, JSON.stringify(next));
      const t0 = performance.now();
      const r = await get(svc, '/reload_config');
      const t1 = performance.now();
      assert.equal(r.status, 200);
      assert.deepEqual([r.json.added, r.json.changed, r.json.removed, r.json.unchanged], [[], ['a'], [], ['b', 'c']]);
      // Frames of b and c after the reload, each checked below for black.
      await until(
        () => ['b', 'c'].every((id) => frames[id].filter((f) => f.at > t1).length >= 5),
        10_000,
        'b and c drawing after the reload',
      );
      unsub.forEach((u) => u());

      for (const id of ['b', 'c']) {
        assert.equal(svc.runtime.unitFor(id), unitsBefore.get(id), `${id} keeps its unit`);
        assert.equal(svc.runtime.unitFor(id)!.runner, runnersBefore.get(id), `${id} keeps its output`);
        assert.ok(svc.runtime.unitFor(id)!.runner.health().framesSent > sentBefore.get(id)!, `${id} sent frames`);
        assert.ok(frames[id].length > 3, `${id} drew frames across the reload`);
        assert.ok(
          frames[id].every((f) => !f.black),
          `${id} never showed a black frame`,
        );
        assert.ok(
          frames[id].some((f) => f.at >= t0 && f.at <= t1 + 60) || t1 - t0 < 40,
          `${id} drew during the reload`,
        );
      }
      // a keeps its panel too (same output, same size) and shows its command again on the new layout, green now.
      assert.equal(svc.runtime.unitFor('a'), unitsBefore.get('a'));
      assert.equal(svc.controller().state('a').areas.get('title')!.text, LONG);
      await until(
        () => {
          const f = svc.api.frame('a')!;
          return f.data[(10 * f.width + 2) * 4 + 1] === 120;
        },
        3000,
        'display a drawn with its new background',
      );
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test(
  'reload: a removed display is blanked and closed; an ' + 'added one is blanked, then replayed from the saved state',
  async () => {
    const c = threeDisplays();
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      await get(svc, `/mlds?id=c&layout=l1&title=Hello`);
      await get(svc, `/mlds?id=b&layout=l1&title=Bravo`);
      await nextFrame(svc, 'c', 0);
      const unitC = svc.runtime.unitFor('c')!;
      // What the panel was sent, looked at as it is sent (a frame's buffer is the compositor's, updated in place).
      const outC = unitC.runner.output;
      const sentC: boolean[] = [];
      const send = outC.send.bind(outC);
      outC.send = (f: Frame) => {
        sentC.push(isBlack(f) && !f.damage);
        return send(f);
      };
      const next = structuredClone(c);
      delete next.displays.c;
      writeFileSync(sd.configFile, JSON.stringify(next));
      const r = await get(svc, '/reload_config');
      assert.deepEqual([r.json.added, r.json.changed, r.json.removed, r.json.unchanged], [[], [], ['c'], ['a', 'b']]);
      assert.equal(sentC.at(-1), true, 'the removed panel was emptied: a whole black frame was the last it was sent');
      assert.equal(unitC.runner.health().open, false, 'and closed');
      assert.equal(svc.runtime.unitFor('c'), undefined);
      assert.equal((await get(svc, '/mlds?id=c&layout=l1&title=x')).json.code, 'MLDS_UNKNOWN_ID');

      // Back again: c is new to the running configuration; its saved request is replayed.
      writeFileSync(sd.configFile, JSON.stringify(c));
      const back = await get(svc, '/reload_config');
      assert.deepEqual([back.json.added, back.json.changed, back.json.removed], [['c'], [], []]);
      assert.equal(svc.controller().state('c').areas.get('title')!.text, 'Hello');
      assert.equal(svc.controller().state('b').areas.get('title')!.text, 'Bravo');
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test(
  'reload: change is detected by content — a picture replaced under its name changes its display, a touched ' +
    'file does not',
  async () => {
    const c = threeDisplays();
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      const logo = path.join(sd.dir, 'images', 'logo.png');
      const later = new Date(Date.now() + 5000);
      utimesSync(logo, later, later);
      const touched = await get(svc, '/reload_config');
      assert.equal(touched.json.result, 'configuration unchanged');
      copyFileSync(path.join(sd.dir, 'images', 'bus.png'), logo);
      const replaced = await get(svc, '/reload_config');
      assert.deepEqual([replaced.json.changed, replaced.json.unchanged], [['a'], ['b', 'c']]);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('the 3000-second re-check reloads a changed file on the injected clock', async () => {
  const clock = new FakeClock(Date.now());
  const c = threeDisplays();
  const sd = serviceDir(c);
  const svc = await start(sd, { clock });
  try {
    const next = structuredClone(c);
    next.displays.b.layout.l9 = { x: { coordinates: '0 0 99 49', type: 'text', fontSize: '20' } };
    writeFileSync(sd.configFile, JSON.stringify(next));
    clock.advance(2999_000);
    // the passing of time is what is tested: no reload within 50 ms of 2999 s on the clock.
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await get(svc, '/mlds?id=b&layout=l9')).json.code, 'MLDS_UNKNOWN_LAYOUT', 'not before 3000 s');
    clock.advance(1000);
    await until(async () => (await get(svc, '/mlds?id=b&layout=l9')).status === 200, 3000, 'the re-check to load l9');
    const status = await get(svc, '/status');
    assert.equal((status.json.components as Record<string, { lastResult: string }>).recheck.lastResult, 'reloaded');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
