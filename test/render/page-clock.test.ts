// Pages and scroll loops placed on the wall clock (src/render/content/page-clock.ts): the page
// at an instant depends on the content and the instant, not on when the content came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TextArea } from '../../src/config/types.js';
import { CLOCK_EPOCH, cycleOrigin, pageAt } from '../../src/render/content/page-clock.js';
import { signTextContent } from '../../src/render/content/sign-text.js';
import { useFontDirs } from '../../src/text/fonts.js';
import { FakeClock } from '../helpers/clock.js';

const area = (extra: Partial<TextArea>): TextArea =>
  ({
    id: 'm',
    x: 0,
    y: 0,
    width: 96,
    height: 16,
    align: 'left',
    fontSize: 13,
    fontColor: { r: 255, g: 170, b: 0 },
    font: new URL('../../fonts/7x13.bdf', import.meta.url).pathname,
    ...extra,
  }) as TextArea;

test('pageAt: [pt] on and off times make the cycle; the page at an instant is counted from the origin', () => {
  // [pt10o5]: 1 s on, 0.5 s off; the next page keeps those times; [pt20]: 2 s, no off time. Cycle 5 s.
  const pages = [
    { onMs: 1000, offMs: 500 },
    { onMs: 1000, offMs: 500 },
    { onMs: 2000, offMs: 0 },
  ];
  const T = Date.UTC(2026, 11, 7, 9, 0, 0); // a multiple of 5 s from the epoch
  const at = (ms: number) => pageAt(T + ms, CLOCK_EPOCH, pages);
  assert.deepEqual(at(0), { index: 0, until: T + 1000 });
  assert.deepEqual(at(1200), { index: -2, until: T + 1500 });
  assert.deepEqual(at(1500), { index: 1, until: T + 2500 });
  assert.deepEqual(at(2999), { index: -3, until: T + 3000 });
  assert.deepEqual(at(3000), { index: 2, until: T + 5000 });
  assert.deepEqual(at(5000 * 7 + 1600), { index: 1, until: T + 5000 * 7 + 2500 });
  // "free": counted from the command (at T + 700, page 1 starts then).
  assert.deepEqual(pageAt(T + 700, T + 700, pages), { index: 0, until: T + 1700 });
});

test('cycleOrigin: pages default to the clock, scrolls to the command; "free" and "clock" say so', () => {
  const start = Date.UTC(2026, 11, 7, 9, 0, 0, 123);
  assert.equal(cycleOrigin(undefined, 'pages', start), CLOCK_EPOCH);
  assert.equal(cycleOrigin(undefined, 'scroll', start), start);
  assert.equal(cycleOrigin('free', 'pages', start), start);
  assert.equal(cycleOrigin('clock', 'scroll-up', start), CLOCK_EPOCH);
});

test('two contents made at different instants (a fake clock) show the same MULTI page at every instant', () => {
  useFontDirs();
  const clock = new FakeClock(Date.UTC(2026, 11, 7, 9, 0, 0, 250));
  const text = '[pt4o1]A[np]BB[np][pt7]CCC';
  const a = area({ markup: 'multi', overflow: 'pages' });
  const first = signTextContent({ area: a, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now() });
  clock.advance(1730);
  const second = signTextContent({ area: a, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now() });
  // "free" does not.
  const free = signTextContent({
    area: { ...a, sync: 'free' },
    text,
    size: 13,
    color: a.fontColor,
    pxPerSecond: 60,
    origin: clock.now(),
  });
  let differs = 0;
  const turns = new Set<number>();
  for (let i = 0; i < 200; i++) {
    clock.advance(37);
    const now = clock.now();
    assert.equal(second.key(now).split(':')[1], first.key(now).split(':')[1], `page at ${now}`);
    assert.equal(second.nextChange(now), first.nextChange(now));
    turns.add(first.nextChange(now) % 1700);
    if (free.key(now).split(':')[1] !== first.key(now).split(':')[1]) differs++;
  }
  // The cycle is 0.4 + 0.1 + 0.4 + 0.1 + 0.7 = 1.7 s; its turns sit at these offsets from the epoch.
  assert.deepEqual(
    [...turns].sort((x, y) => x - y),
    [0, 400, 500, 900, 1000],
  );
  assert.ok(differs > 20, `"free" starts on the command: ${differs} instants differ`);
});

test('a scroll loop with sync "clock" is at the same pixel on two contents made at different instants', () => {
  useFontDirs();
  const clock = new FakeClock(Date.UTC(2026, 11, 7, 9, 0, 0, 0));
  const a = area({ overflow: 'scroll', sync: 'clock', headToTail: 3 });
  const text = 'Lotnisko Chopina Terminal A';
  const make = (on: TextArea) =>
    signTextContent({ area: on, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now(), step: 2 });
  const first = make(a);
  assert.ok(first.scrolls);
  clock.advance(4321);
  const second = make(a);
  const unset = make({ ...a, sync: undefined });
  for (let i = 0; i < 100; i++) {
    clock.advance(53);
    const now = clock.now();
    assert.equal(second.key(now).split(':')[1], first.key(now).split(':')[1], `distance at ${now}`);
  }
  // Unset, a scroll starts with its head at the right edge when it comes.
  assert.ok(Number(unset.key(clock.now()).split(':')[1]) < 400);
});

test("a departure board's pages: two boards made at different instants show the same rows", async () => {
  const { createCanvas } = await import('canvas');
  const { loadConfig } = await import('../../src/config/load.js');
  const { drawerOf } = await import('../../src/render/content/drawers.js');
  const { serviceDir } = await import('../helpers/service.js');
  const T0 = Date.UTC(2026, 10, 21, 12, 0, 0, 170);
  const board = {
    coordinates: '0 0 191 25',
    type: 'departures',
    feed: 'city',
    stops: ['S1'],
    rows: '2',
    font: '7x13.bdf',
    fontSize: '13',
    overflow: 'pages',
    pageSeconds: '2',
    columns: [
      { width: '42', field: 'route' },
      { width: '150', field: 'destination' },
    ],
  };
  const sd = serviceDir({
    feeds: { city: { type: 'siri', url: 'http://127.0.0.1:8080/sm' } },
    displays: {
      s: {
        displayWidth: '192',
        displayHeight: '26',
        output: { driver: 'virtual' },
        layout: { l: { board, free: { ...board, sync: 'free' } } },
      },
    },
  });
  try {
    const [onClock, onCommand] = loadConfig(sd.configFile).displayById.get('s')!.layouts.get('l')!.areas;
    // Six departures an hour away: three pages of two rows, a 6 s cycle.
    const departures = [1, 2, 3, 4, 5, 6].map((n) => ({
      key: `t${n}`,
      route: `${n}`,
      destination: `Stop ${n}`,
      platform: '',
      time: T0 + 3_600_000 + n,
      live: true,
      cancelled: false,
    }));
    const source = { board: () => ({ state: 'live' as const, departures }), onChange: () => () => {} };
    const boards = () => ({ source, version: 0 });
    const clock = new FakeClock(T0);
    const make = (a: typeof onClock) =>
      drawerOf('departures').draw!(a, undefined, { start: clock.now(), live: false, boards })!;
    const first = make(onClock);
    clock.advance(2900);
    const second = make(onClock),
      free = make(onCommand);
    const pixels = (c: ReturnType<typeof make>, now: number) => {
      const canvas = createCanvas(192, 26);
      c.draw(canvas.getContext('2d'), 0, 0, now);
      return canvas.toBuffer('raw');
    };
    let differs = 0;
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      clock.advance(450);
      const now = clock.now();
      const p = pixels(first, now);
      seen.add(p.toString('base64'));
      assert.ok(p.equals(pixels(second, now)), `the boards differ at ${new Date(now).toISOString()}`);
      if (!p.equals(pixels(free, now))) differs++;
    }
    assert.equal(seen.size, 3, 'three pages shown in turn');
    assert.ok(differs > 5, `"free" counts from its start: ${differs} instants differ`);
  } finally {
    sd.cleanup();
  }
});
