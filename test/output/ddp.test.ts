// DDP over real UDP on loopback: a receiver reassembles pictures from offsets and PUSH and
// compares them with a frame rendered by node-canvas; a receiver that goes away shows on health().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { createCanvas } from 'canvas';
import { DdpOutput } from '../../src/output/ddp.js';
import { OutputRunner } from '../../src/output/runner.js';
import type { Frame } from '../../src/output/types.js';
import { nativeHelperProblem } from '../../src/output/native.js';
import { ddpReceiver as receiver } from './ddp-receiver.js';
import { rgbOf, waitFor } from './frames.js';

const quiet = { warn: () => undefined, info: () => undefined };

function rendered(width: number, height: number, text: string): Frame {
  const c = createCanvas(width, height), ctx = c.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, width, height);
  g.addColorStop(0, '#102030'); g.addColorStop(1, '#f0a000');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#ffffff';
  ctx.font = '20px sans-serif';
  ctx.fillText(text, 4, height - 8);
  return { width, height, data: new Uint8Array(ctx.getImageData(0, 0, width, height).data.buffer), seq: 1 };
}

for (const native of [true, false]) {
  const via = native ? 'sendmmsg' : 'dgram';
  test(`ddp via ${via}: header bytes, 1440-byte payloads, sequence numbers, PUSH last, picture equal to the frame`, {
    skip: native ? nativeHelperProblem() : undefined,
  }, () => fullFrame(native, via));
}

async function fullFrame(native: boolean, via: string): Promise<void> {
  const w = 128, h = 64, bytes = w * h * 3; // 24576 bytes: 17 full packets and one of 96
  const rx = await receiver(bytes);
  const runner = new OutputRunner(new DdpOutput('127.0.0.1', rx.port, { native }), quiet);
  try {
    await runner.start(w, h);
    const frame = rendered(w, h, 'Platform 3');
    assert.equal(await runner.submit(frame), true);
    await waitFor('two pictures', () => rx.pictures.length === 2);
    assert.ok(rx.pictures[0].every((b) => b === 0), 'the first picture is black');
    assert.ok(rx.pictures[1].equals(rgbOf(frame)), 'the reassembled picture equals the rendered frame');

    assert.equal(rx.packets.length, 2 * 18);
    rx.packets.forEach((p, i) => {
      const k = i % 18, last = k === 17;
      assert.equal(p[0], last ? 0x41 : 0x40, `packet ${i}: version 1, PUSH only on the last`);
      assert.equal(p[1], (i % 15) + 1, `packet ${i}: sequence 1..15 wrapping`);
      assert.equal(p[2], 0x0b, 'RGB, 8 bits per channel');
      assert.equal(p[3], 0x01, 'default output');
      assert.equal(p.readUInt32BE(4), k * 1440);
      assert.equal(p.readUInt16BE(8), last ? bytes - 17 * 1440 : 1440);
      assert.equal(p.length, 10 + p.readUInt16BE(8));
    });
    assert.equal(runner.health().framesSent, 2);
    assert.equal(runner.health().details.via, via);
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

test('ddp: a receiver that goes away shows as failures and a last error, then recovers', async () => {
  const rx = await receiver(8 * 8 * 3);
  const port = rx.port;
  let t = 0;
  const runner = new OutputRunner(new DdpOutput('127.0.0.1', port), quiet, () => t);
  try {
    await runner.start(8, 8);
    await new Promise<void>((r) => rx.sock.close(() => r()));
    const frame = rendered(8, 8, 'x');
    let failed = false;
    for (let i = 0; i < 10 && !failed; i++) {
      failed = !(await runner.submit(frame));
      await new Promise((r) => setTimeout(r, 20));
    }
    const h = runner.health();
    assert.ok(failed, 'a send fails once the port is closed');
    assert.equal(h.lastResult, 'error');
    assert.ok(h.consecutiveFailures >= 1);
    assert.match(h.lastError!, /ECONNREFUSED/);

    const back = createSocket('udp4');
    await new Promise<void>((r) => back.bind(port, '127.0.0.1', () => r()));
    try {
      let ok = false;
      for (let i = 0; i < 20 && !ok; i++) { t += 30_000; ok = await runner.submit(frame); }
      assert.ok(ok, 'frames flow again once the receiver is back');
      assert.equal(runner.health().consecutiveFailures, 0);
    } finally {
      back.close();
    }
  } finally {
    await runner.stop();
  }
});
