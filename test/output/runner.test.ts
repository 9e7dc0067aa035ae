import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutputRunner, BACKOFF_MAX_MS, REOPEN_AFTER_FAILURES } from '../../src/output/runner.js';
import type { Frame, Output, VirtualDetails } from '../../src/output/types.js';

/** An output whose open and send fail on demand, recording what reached it. */
class FlakyOutput implements Output {
  readonly driver = 'flaky';
  openFails = false;
  sendFails = false;
  opens = 0;
  closes = 0;
  frames: Frame[] = [];
  brightness: number[] = [];
  async open(): Promise<void> {
    this.opens++;
    if (this.openFails) throw Object.assign(new Error('ENODEV: no such device'), { code: 'ENODEV' });
  }
  async send(frame: Frame): Promise<void> {
    if (this.sendFails) throw Object.assign(new Error('ECONNREFUSED: receiver gone'), { code: 'ECONNREFUSED' });
    this.frames.push(frame);
  }
  async setBrightness(p: number): Promise<void> {
    this.brightness.push(p);
  }
  async close(): Promise<void> {
    this.closes++;
  }
  describe(): VirtualDetails {
    return { brightness: 100, frames: this.frames.length, warnings: this.sendFails ? ['link down'] : [] };
  }
  private listeners: Array<(err: Error) => void> = [];
  onError(l: (err: Error) => void): void {
    this.listeners.push(l);
  }
  /** What a UDP socket does when the ICMP for an already counted picture comes in. */
  reportLater(): void {
    for (const l of this.listeners)
      l(Object.assign(new Error('ECONNREFUSED: connection refused, recvmsg'), { code: 'ECONNREFUSED' }));
  }
}

const quiet = { warn: () => undefined, info: () => undefined };
const frame = (seq: number): Frame => ({ width: 2, height: 1, data: new Uint8Array(8).fill(seq), seq });

test('start sends a black frame of the display size first', async () => {
  const out = new FlakyOutput();
  const r = new OutputRunner(out, quiet);
  await r.start(3, 2);
  assert.equal(out.frames.length, 1);
  assert.equal(out.frames[0].data.length, 3 * 2 * 4);
  assert.ok(out.frames[0].data.every((b) => b === 0));
  assert.equal(r.health().framesSent, 1);
});

test('a failing open is a warning, retried with doubling backoff capped at 30 s', async () => {
  let t = 1_000_000;
  const out = new FlakyOutput();
  out.openFails = true;
  const r = new OutputRunner(out, quiet, () => t);
  assert.equal(await r.submit(frame(1)), false);
  assert.equal(out.opens, 1);
  let h = r.health();
  assert.equal(h.open, false);
  assert.match(h.lastError!, /^open: ENODEV/);
  assert.match(h.warnings[0], /output not open/);
  assert.equal(h.nextRetryAt, new Date(t + 500).toISOString());

  assert.equal(await r.submit(frame(2)), false); // inside the backoff: no new attempt
  assert.equal(out.opens, 1);
  const delays: number[] = [];
  for (let i = 0; i < 9; i++) {
    const due = Date.parse(r.health().nextRetryAt!) - t;
    delays.push(due);
    t += due;
    await r.submit(frame(3));
  }
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 16000, BACKOFF_MAX_MS, BACKOFF_MAX_MS, BACKOFF_MAX_MS]);
  out.openFails = false;
  t += BACKOFF_MAX_MS;
  assert.equal(await r.submit(frame(4)), true);
  h = r.health();
  assert.equal(h.open, true);
  assert.equal(h.consecutiveFailures, 0);
  assert.equal(h.lastResult, 'ok');
  assert.deepEqual(
    out.frames.map((f) => f.seq),
    [4],
  );
});

test('repeated send failures close the output and reopen it after the backoff', async () => {
  let t = 0;
  const out = new FlakyOutput();
  const r = new OutputRunner(out, quiet, () => t);
  await r.start(2, 1);
  await r.setBrightness(40);
  out.sendFails = true;
  for (let i = 0; i < REOPEN_AFTER_FAILURES; i++) assert.equal(await r.submit(frame(i)), false);
  let h = r.health();
  assert.equal(h.open, false);
  assert.equal(h.consecutiveFailures, REOPEN_AFTER_FAILURES);
  assert.match(h.lastError!, /^send: ECONNREFUSED/);
  assert.ok(h.warnings.includes('link down'));
  assert.equal(out.closes, 1);
  out.sendFails = false;
  t += 500;
  assert.equal(await r.submit(frame(9)), true);
  assert.equal(out.opens, 2);
  assert.deepEqual(out.brightness, [40, 40], 'brightness is re-applied after a reopen');
  h = r.health();
  assert.equal(h.framesSent, 2);
  assert.equal(h.lastSendAt, new Date(t).toISOString());
});

test('stop closes the output and no frame reaches it afterwards', async () => {
  const out = new FlakyOutput();
  const r = new OutputRunner(out, quiet);
  await r.start(2, 1);
  await r.stop();
  assert.equal(await r.submit(frame(5)), false);
  assert.equal(out.frames.length, 1);
});

test('driver warnings are logged once when they appear and once when they clear', async () => {
  let t = 0;
  const logged: string[] = [];
  const log = {
    warn: (o: object, m: string) => logged.push(`${m}: ${(o as { warning?: string }).warning}`),
    info: (o: object, m: string) => logged.push(`${m}: ${(o as { warning?: string }).warning}`),
  };
  const out = new FlakyOutput();
  let warnings = ['link down on eth1'];
  out.describe = () => ({ brightness: 100, frames: 0, warnings });
  const r = new OutputRunner(out, log, () => t);
  await r.start(2, 1);
  for (let i = 0; i < 5; i++) {
    t += 2000;
    await r.submit(frame(i));
  }
  warnings = [];
  t += 2000;
  await r.submit(frame(9));
  assert.deepEqual(logged, ['output warning: link down on eth1', 'output warning cleared: link down on eth1']);
});

test('an error reported between sends is a failure at once: health says error, and three in a row reopen', async () => {
  let t = 0;
  const out = new FlakyOutput();
  const r = new OutputRunner(out, quiet, () => t);
  await r.start(2, 1);
  assert.equal(r.health().lastResult, 'ok');
  t += 100;
  out.reportLater();
  let h = r.health();
  assert.equal(h.lastResult, 'error');
  assert.equal(h.consecutiveFailures, 1);
  assert.match(h.lastError!, /^send: ECONNREFUSED/);
  assert.equal(h.lastErrorAt, new Date(100).toISOString());
  out.reportLater();
  out.reportLater();
  await r.submit(frame(1)); // queued behind the close: the output is closed for the backoff
  h = r.health();
  assert.equal(h.open, false);
  assert.equal(h.reopens, 1);
  assert.equal(out.closes, 1);
  t += 500;
  assert.equal(await r.submit(frame(2)), true);
  h = r.health();
  assert.deepEqual([h.open, h.lastResult, h.consecutiveFailures, h.reopens], [true, 'ok', 0, 1]);
  assert.equal(h.lastErrorAt, new Date(100).toISOString(), 'the last error stays as history, dated');
});

test(
  'frames submitted back to back reach the driver one ' + 'at a time and in order, whether it was idle or busy',
  async () => {
    const out = new FlakyOutput();
    let inSend = 0,
      most = 0;
    const send = out.send.bind(out);
    out.send = async (f: Frame) => {
      inSend++;
      most = Math.max(most, inSend);
      // the passing of time is what is tested: a send that takes a while, so others arrive during it.
      await new Promise((r) => setTimeout(r, 2));
      inSend--;
      return send(f);
    };
    const r = new OutputRunner(out, quiet);
    await r.start(2, 1);
    // Idle and open: the first goes straight to the driver, the rest wait behind it.
    const results = await Promise.all([1, 2, 3, 4, 5].map((s) => r.submit(frame(s))));
    assert.deepEqual(results, [true, true, true, true, true]);
    assert.deepEqual(
      out.frames.map((f) => f.seq),
      [0, 1, 2, 3, 4, 5],
    );
    assert.equal(most, 1, 'never two sends at once');
    // Idle again: the next one alone, then a burst again.
    assert.equal(await r.submit(frame(6)), true);
    await Promise.all([7, 8].map((s) => r.submit(frame(s))));
    assert.deepEqual(out.frames.map((f) => f.seq).slice(6), [6, 7, 8]);
    assert.equal(most, 1);
  },
);

/** A driver done inside send(): no promise, a throw instead of a rejection. */
class SyncOutput implements Output {
  readonly driver = 'sync';
  sendFails = false;
  closes = 0;
  frames: Frame[] = [];
  async open(): Promise<void> {}
  send(frame: Frame): void {
    if (this.sendFails) throw Object.assign(new Error('EIO: panel gone'), { code: 'EIO' });
    this.frames.push(frame);
  }
  async setBrightness(): Promise<void> {}
  async close(): Promise<void> {
    this.closes++;
  }
  describe(): VirtualDetails {
    return { brightness: 100, frames: this.frames.length };
  }
}

test(
  'a driver done inside send() is answered at once, with ' + 'no promise; its throws count as failures and reopen it',
  async () => {
    const out = new SyncOutput();
    const r = new OutputRunner(out, quiet);
    await r.start(2, 1);
    const done = r.submit(frame(1));
    assert.equal(done, true, 'a boolean, not a promise');
    assert.equal(out.frames.at(-1)?.seq, 1);
    assert.equal(r.health().framesSent, 2);
    out.sendFails = true;
    for (let i = 0; i < REOPEN_AFTER_FAILURES; i++) {
      const failed = r.submit(frame(2 + i));
      assert.ok(failed instanceof Promise, 'a failure may close the output: answered through a promise');
      assert.equal(await failed, false);
    }
    const h = r.health();
    assert.equal(h.lastResult, 'error');
    assert.match(h.lastError ?? '', /^send: EIO/);
    assert.equal(h.reopens, 1, `${REOPEN_AFTER_FAILURES} failures in a row close it for a reopen`);
    assert.equal(out.closes, 1);
    // Frames submitted back to back while one is still queued keep their order.
    out.sendFails = false;
    const late = [r.submit(frame(10)), r.submit(frame(11))];
    assert.deepEqual(await Promise.all(late), [false, false], 'inside the reopen backoff: not sent');
  },
);
