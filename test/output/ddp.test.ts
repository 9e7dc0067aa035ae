// DDP over real UDP on loopback: a receiver reassembles pictures from offsets and PUSH and
// compares them with a frame rendered by node-canvas; a receiver that goes away shows on health().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCanvas } from 'canvas';
import { DdpOutput, REFUSED_HOLD_MS } from '../../src/output/ddp.js';
import { BACKOFF_MAX_MS, OutputRunner, REOPEN_AFTER_FAILURES } from '../../src/output/runner.js';
import type { DdpDetails, Frame } from '../../src/output/types.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { ddpReceiver as receiver } from './ddp-receiver.js';
import { rgbOf, waitFor } from './frames.js';
import { closedUdpPort } from '../helpers/ports.js';
import { skipReason } from '../helpers/skip.js';

const quiet = { warn: () => undefined, info: () => undefined };

function rendered(width: number, height: number, text: string): Frame {
  const c = createCanvas(width, height),
    ctx = c.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, width, height);
  g.addColorStop(0, '#102030');
  g.addColorStop(1, '#f0a000');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#ffffff';
  ctx.font = '20px sans-serif';
  ctx.fillText(text, 4, height - 8);
  return { width, height, data: new Uint8Array(ctx.getImageData(0, 0, width, height).data.buffer), seq: 1 };
}

for (const native of [true, false]) {
  const via = native ? 'sendmmsg' : 'dgram';
  test(
    `ddp via ${via}: header bytes, 1440-byte payloads, sequence numbers, PUSH last, picture equal to the frame`,
    {
      skip: native ? skipReason(nativeHelperProblem()) : undefined,
    },
    () => fullFrame(native, via),
  );
}

async function fullFrame(native: boolean, via: string): Promise<void> {
  const w = 128,
    h = 64,
    bytes = w * h * 3; // 24576 bytes: 17 full packets and one of 96
  const rx = await receiver(bytes);
  const runner = new OutputRunner(new DdpOutput('127.0.0.1', rx.port, { native }), quiet);
  try {
    await runner.start(w, h);
    const frame = rendered(w, h, 'Platform 3');
    assert.equal(await runner.submit(frame), true);
    await waitFor('two pictures', () => rx.pictures.length === 2);
    assert.ok(
      rx.pictures[0].every((b) => b === 0),
      'the first picture is black',
    );
    assert.ok(rx.pictures[1].equals(rgbOf(frame)), 'the reassembled picture equals the rendered frame');

    assert.equal(rx.packets.length, 2 * 18);
    rx.packets.forEach((p, i) => {
      const k = i % 18,
        last = k === 17;
      assert.equal(p[0], last ? 0x41 : 0x40, `packet ${i}: version 1, PUSH only on the last`);
      assert.equal(p[1], (i % 15) + 1, `packet ${i}: sequence 1..15 wrapping`);
      assert.equal(p[2], 0x0b, 'RGB, 8 bits per channel');
      assert.equal(p[3], 0x01, 'default output');
      assert.equal(p.readUInt32BE(4), k * 1440);
      assert.equal(p.readUInt16BE(8), last ? bytes - 17 * 1440 : 1440);
      assert.equal(p.length, 10 + p.readUInt16BE(8));
    });
    assert.equal(runner.health().framesSent, 2);
    assert.equal((runner.health().details as DdpDetails).via, via);
  } finally {
    await runner.stop();
    rx.sock.close();
  }
}

test('ddp: brightness scales the pixels on the wire', async () => {
  const rx = await receiver(3);
  const out = new DdpOutput('127.0.0.1', rx.port);
  try {
    await out.open();
    await out.setBrightness(50);
    await out.send({ width: 1, height: 1, data: Uint8Array.from([255, 128, 0, 255]), seq: 1 });
    await waitFor('a picture', () => rx.pictures.length === 1);
    assert.deepEqual([...rx.pictures[0]], [188, 92, 0]);
  } finally {
    await out.close();
    rx.sock.close();
  }
});

for (const native of [true, false]) {
  const via = native ? 'sendmmsg' : 'dgram';
  test(
    `ddp via ${via}: a closed port fails every picture and the count reopens; a receiver that appears is ok once ` +
      `the hold passed`,
    {
      skip: native ? skipReason(nativeHelperProblem()) : undefined,
    },
    async () => {
      const port = await closedUdpPort();
      let t = 0;
      const out = new DdpOutput('127.0.0.1', port, { native, now: () => t });
      const runner = new OutputRunner(out, quiet, () => t);
      const frame = rendered(8, 8, 'x');
      let rx: Awaited<ReturnType<typeof receiver>> | undefined;
      try {
        await runner.start(8, 8); // the black picture: the first failure
        for (let i = 1; i <= REOPEN_AFTER_FAILURES; i++) {
          const h = runner.health();
          assert.deepEqual(
            [h.lastResult, h.consecutiveFailures, (h.details as DdpDetails).via],
            ['error', i, via],
            `after picture ${i}`,
          );
          assert.match(h.lastError!, /^send: ECONNREFUSED/);
          if (i < REOPEN_AFTER_FAILURES)
            assert.equal(await runner.submit(frame), false, `picture ${i + 1} is not confirmed`);
        }
        let h = runner.health();
        assert.deepEqual([h.open, h.reopens], [false, 1], 'three failures in a row close the output for a reopen');

        rx = await receiver(8 * 8 * 3, port);
        t += 500; // the backoff, well inside the hold
        assert.equal(await runner.submit(frame), false, 'an error 0.5 s ago: not yet confirmed');
        await waitFor('the picture at the receiver', () => rx!.pictures.length === 1);
        h = runner.health();
        // Still failing in a row, so closed again for the next, longer backoff.
        assert.deepEqual(
          [h.open, h.lastResult, h.consecutiveFailures, h.reopens],
          [false, 'error', REOPEN_AFTER_FAILURES + 1, 2],
        );
        assert.match(
          h.lastError!,
          /^send: ECONNREFUSED: 127\.0\.0\.1:\d+ reported .* 0\.5 s ago; the receiver counts as failing until 2 s pass without an error/,
        );
        t += REFUSED_HOLD_MS + BACKOFF_MAX_MS;
        assert.equal(await runner.submit(frame), true, 'no error for longer than the hold: delivered');
        h = runner.health();
        assert.deepEqual([h.open, h.lastResult, h.consecutiveFailures, h.reopens], [true, 'ok', 0, 2]);
        await waitFor('the second picture', () => rx!.pictures.length === 2);
        assert.ok(rx.pictures[1].equals(rgbOf(frame)));
      } finally {
        await runner.stop();
        await rx?.close();
      }
    },
  );
}

test('ddp: a receiver that goes away fails the very next picture, not one later', async () => {
  const rx = await receiver(8 * 8 * 3);
  let t = 0;
  const runner = new OutputRunner(new DdpOutput('127.0.0.1', rx.port, { now: () => t }), quiet, () => t);
  try {
    await runner.start(8, 8);
    assert.equal(runner.health().lastResult, 'ok');
    await rx.close();
    t += 1000;
    assert.equal(await runner.submit(rendered(8, 8, 'x')), false);
    const h = runner.health();
    assert.deepEqual([h.lastResult, h.consecutiveFailures], ['error', 1]);
    assert.match(h.lastError!, /ECONNREFUSED/);
  } finally {
    await runner.stop();
  }
});
