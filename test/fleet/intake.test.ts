// The queue between the broker and the control path: bounded in commands and in bytes, one
// command at a time in arrival order, and never holding the event loop for a whole queue.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Intake } from '../../src/fleet/intake.js';
import { until } from '../helpers/service.js';

test('at most `limit` commands and `maxBytes` bytes wait; beyond either, offer() refuses', async () => {
  const release: Array<() => void> = [];
  const intake = new Intake<number>(() => new Promise<void>((r) => release.push(r)), 3, 1000);
  // The first is taken at once (running), three wait.
  assert.equal(intake.offer(0, 10), true);
  await until(() => release.length === 1);
  assert.deepEqual(
    [1, 2, 3, 4].map((i) => intake.offer(i, 10)),
    [true, true, true, false],
  );
  assert.equal(intake.length, 3);
  release.shift()!();
  await until(() => release.length === 1 && intake.length === 2);
  assert.equal(intake.offer(5, 991), false, 'over the bytes');
  assert.equal(intake.offer(6, 980), true);
  while (release.length) {
    release.shift()!();
    await until(() => release.length > 0 || intake.length === 0);
  }
});

test('commands run one at a time, in the order offered', async () => {
  const ran: number[] = [];
  let running = 0;
  let most = 0;
  const intake = new Intake<number>(async (i) => {
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, 1));
    ran.push(i);
    running--;
  });
  for (let i = 0; i < 20; i++) assert.ok(intake.offer(i, 1));
  await until(() => ran.length === 20);
  assert.deepEqual(
    ran,
    Array.from({ length: 20 }, (_, i) => i),
  );
  assert.equal(most, 1);
});

test('a long queue gives the event loop turns while it drains: timers fire between its commands', async () => {
  let done = 0;
  // Each command resolves at once, as a commit does: without the turns the whole queue ran in one go.
  const intake = new Intake<number>(async () => {
    const end = performance.now() + 0.5;
    while (performance.now() < end) {
      /* a command's work */
    }
    done++;
  });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    for (let i = 0; i < 400; i++) intake.offer(i, 1);
    await until(() => done === 400, 10_000, 'the queue drained');
    assert.ok(ticks >= 10, `${ticks} timer turns during 200 ms of queued work`);
  } finally {
    clearInterval(timer);
  }
});
