import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { clockStep, litCount, sign } from './sign-service.js';

// sync "free": the pages count from the command, so the fake clock's steps land on them.
test('[pt] holds for its page and the pages after it until the next [pt] (fake clock)', async () => {
  const clock = new FakeClock(Date.now());
  const s = await sign(
    {
      m: {
        coordinates: '0 0 191 47',
        type: 'text',
        font: '7x13.bdf',
        fontSize: '13',
        markup: 'multi',
        fontColor: '255 170 0',
        pageSeconds: '30',
        sync: 'free',
      },
    },
    192,
    48,
    {},
    { clock },
  );
  try {
    const step = clockStep(s, clock, 5000);
    // Page 1: 1 s on, 0.5 s off. Page 2 has no [pt]: the same times. Page 3: 2 s, and no off time (its [pt] gives
    // none).
    assert.equal((await s.show(`m=${encodeURIComponent('[pt10o5]I[np]WWW[np][pt20]II')}`)).status, 200);
    const one = await litCount(s);
    assert.ok(one > 0);
    assert.equal(await step(1000), 0, 'page 1 off time');
    const two = await step(500);
    assert.ok(two > one * 2, `page 2 (${two} lit) after page 1 (${one})`);
    assert.equal(await step(1000), 0, "page 2 off time, held from page 1's [pt]");
    assert.equal(await step(500), one * 2, "page 3: two of page 1's letter");
    // Page 3 shows 2 s (not the area's 30 s) and then page 1 at once: no off time.
    assert.equal(await step(2000), one, "page 1 again after page 3's 2 s");
  } finally {
    await s.close();
  }
});
