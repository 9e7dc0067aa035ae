// Pages and scroll loops placed on the wall clock (src/render/content/page-clock.ts): the page
// at an instant depends on the content and the instant, not on when the content came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TextArea } from '../../src/config/types.js';
import { CLOCK_EPOCH, cycleOrigin, pageAt } from '../../src/render/content/page-clock.js';
import { signTextContent } from '../../src/render/content/sign-text.js';
import { useFontDirs } from '../../src/text/fonts.js';
import { FakeClock } from '../helpers/clock.js';

const area = (extra: Partial<TextArea>): TextArea => ({
  id: 'm', x: 0, y: 0, width: 96, height: 16, align: 'left', fontSize: 13, fontColor: { r: 255, g: 170, b: 0 },
  font: new URL('../../fonts/7x13.bdf', import.meta.url).pathname, ...extra,
} as TextArea);

test('pageAt: [pt] on and off times make the cycle; the page at an instant is counted from the origin', () => {
  // [pt10o5]: 1 s on, 0.5 s off; the next page keeps those times; [pt20]: 2 s, no off time. Cycle 5 s.
  const pages = [{ onMs: 1000, offMs: 500 }, { onMs: 1000, offMs: 500 }, { onMs: 2000, offMs: 0 }];
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

test('two contents made at different instants (a fake clock) show the same MULTI page at every instant, and "free" does not', () => {
  useFontDirs();
  const clock = new FakeClock(Date.UTC(2026, 11, 7, 9, 0, 0, 250));
  const text = '[pt4o1]A[np]BB[np][pt7]CCC';
  const a = area({ markup: 'multi', overflow: 'pages' });
  const first = signTextContent({ area: a, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now() });
  clock.advance(1730);
  const second = signTextContent({ area: a, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now() });
  const free = signTextContent({ area: { ...a, sync: 'free' }, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now() });
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
  assert.deepEqual([...turns].sort((x, y) => x - y), [0, 400, 500, 900, 1000]);
  assert.ok(differs > 20, `"free" starts on the command: ${differs} instants differ`);
});

test('a scroll loop with sync "clock" is at the same pixel on two contents made at different instants', () => {
  useFontDirs();
  const clock = new FakeClock(Date.UTC(2026, 11, 7, 9, 0, 0, 0));
  const a = area({ overflow: 'scroll', sync: 'clock', headToTail: 3 });
  const text = 'Lotnisko Chopina Terminal A';
  const first = signTextContent({ area: a, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now(), step: 2 });
  assert.ok(first.scrolls);
  clock.advance(4321);
  const second = signTextContent({ area: a, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now(), step: 2 });
  const unset = signTextContent({ area: { ...a, sync: undefined }, text, size: 13, color: a.fontColor, pxPerSecond: 60, origin: clock.now(), step: 2 });
  for (let i = 0; i < 100; i++) {
    clock.advance(53);
    const now = clock.now();
    assert.equal(second.key(now).split(':')[1], first.key(now).split(':')[1], `distance at ${now}`);
  }
  // Unset, a scroll starts with its head at the right edge when it comes.
  assert.ok(Number(unset.key(clock.now()).split(':')[1]) < 400);
});
