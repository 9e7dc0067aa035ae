import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { loadImage, createCanvas } from 'canvas';
import Koa from 'koa';
import { liveSource, LiveViews, type LiveSource } from '../../src/http/stream.js';
import type { Frame } from '../../src/output/types.js';
import { FrameLoop } from '../../src/render/loop.js';
import { area, rig } from '../render/helpers.js';
import { until } from '../helpers/wait.js';

/** A unit whose frames the test pushes by hand; the display is its top-left W x H. */
class FakeUnit implements LiveSource {
  readonly listeners = new Set<(f: Frame) => void>();
  last: Frame | undefined;
  seq = 0;
  constructor(
    readonly width: number,
    readonly height: number,
    readonly unitWidth = width + 16,
  ) {}
  latest() {
    return this.last;
  }
  subscribe(fn: (f: Frame) => void) {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }
  push(rgb: [number, number, number], noise = false): void {
    const data = new Uint8Array(this.unitWidth * this.height * 4);
    for (let i = 0; i < data.length; i += 4) {
      if (noise) {
        data[i] = Math.random() * 256;
        data[i + 1] = Math.random() * 256;
        data[i + 2] = Math.random() * 256;
      } else {
        data[i] = rgb[0];
        data[i + 1] = rgb[1];
        data[i + 2] = rgb[2];
      }
      data[i + 3] = 255;
    }
    this.last = { width: this.unitWidth, height: this.height, data, seq: ++this.seq };
    for (const fn of this.listeners) fn(this.last);
  }
}

const views = new LiveViews({ maxFps: 25 });
const sources = new Map<string, LiveSource>();
let server: http.Server;
let port = 0;

before(async () => {
  const app = new Koa();
  // Viewers that hang up mid-stream are part of these tests, not failures to print.
  app.silent = true;
  app.use((ctx) => {
    const id = String(ctx.query.id);
    views.serve(ctx, id, sources.get(id)!);
  });
  server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
after(() => {
  views.closeAll();
  server.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Connects a viewer and collects the JPEG parts it receives. */
function viewer(id: string, stallAfterFirstPart = false) {
  const parts: Buffer[] = [];
  let headers: http.IncomingHttpHeaders = {};
  let buf = Buffer.alloc(0);
  const req = http.get({ port, path: `/screenshot?stream=1&id=${id}` }, (r) => {
    headers = r.headers;
    r.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        // A part is its headers, the JPEG, and the boundary that ends it.
        const head = buf.indexOf('Content-Type: image/jpeg\r\n\r\n');
        if (head < 0) break;
        const start = head + 'Content-Type: image/jpeg\r\n\r\n'.length;
        const end = buf.indexOf('\r\n--mldsframe\r\n', start);
        if (end < 0) break;
        parts.push(buf.subarray(start, end));
        buf = buf.subarray(end);
        // A phone on a bad link: it takes one picture, then reads nothing more.
        if (stallAfterFirstPart) {
          r.pause();
          break;
        }
      }
    });
  });
  req.on('error', () => {});
  return { parts, headers: () => headers, close: () => req.destroy() };
}

async function colourOf(jpeg: Buffer): Promise<{ rgb: number[]; w: number; h: number }> {
  const img = await loadImage(jpeg);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return {
    rgb: [...ctx.getImageData(img.width >> 1, img.height >> 1, 1, 1).data.slice(0, 3)],
    w: img.width,
    h: img.height,
  };
}

test('a viewer gets multipart JPEG parts of the display, starting with the current picture', async () => {
  const src = new FakeUnit(64, 32);
  sources.set('a', src);
  src.push([200, 30, 30]);
  const v = viewer('a');
  await until(() => v.parts.length >= 1, 10_000, 'the first picture');
  // the passing of time is what is tested: nothing more within 50 ms of a still screen.
  await sleep(50);
  assert.match(String(v.headers()['content-type']), /^multipart\/x-mixed-replace; boundary=mldsframe$/);
  assert.equal(v.parts.length, 1, 'the current picture at once');
  const first = await colourOf(v.parts[0]);
  assert.deepEqual([first.w, first.h], [64, 32], 'cropped to the display');
  assert.ok(Math.abs(first.rgb[0] - 200) < 8 && first.rgb[1] < 40);
  src.push([20, 20, 220]);
  await until(() => v.parts.length >= 2, 10_000, 'the second picture');
  assert.equal(v.parts.length, 2);
  assert.ok((await colourOf(v.parts[1])).rgb[2] > 200);
  v.close();
  await until(() => src.listeners.size === 0, 10_000, 'the viewer gone');
  assert.equal(src.listeners.size, 0, 'the last viewer leaving unsubscribes from the unit');
  assert.equal(views.stats().a, undefined);
});

test('at most 25 pictures a second however fast frames come, each frame encoded once for all viewers', async () => {
  const src = new FakeUnit(64, 32);
  sources.set('b', src);
  src.push([0, 0, 0]);
  // The time the encoder had, measured: 1.2 s planned, more on a loaded or emulated machine.
  const t0 = performance.now();
  const vs = Array.from({ length: 5 }, () => viewer('b'));
  await until(() => vs.every((v) => v.parts.length >= 1), 10_000, "every viewer's first picture");
  // the passing of time is what is tested: a frame every 10 ms, faster than 25 a second.
  for (let i = 0; i < 100; i++) {
    src.push([i * 2, 0, 0]);
    await sleep(10);
  }
  const lastRed = async () => Math.abs((await colourOf(vs[0].parts[vs[0].parts.length - 1])).rgb[0] - 198) < 8;
  await until(lastRed, 10_000, 'the last frame pushed at the first viewer');
  const { encodes } = views.stats().b;
  const seconds = (performance.now() - t0) / 1000;
  assert.ok(encodes <= 25 * seconds + 2, `${encodes} encodes in ${seconds.toFixed(2)} s`);
  for (const v of vs) {
    assert.ok(v.parts.length >= 5 && v.parts.length <= encodes, `viewer got ${v.parts.length} of ${encodes}`);
  }
  // The last frame pushed is the last picture sent (a waiting frame is replaced, never lost).
  assert.ok(Math.abs((await colourOf(vs[0].parts[vs[0].parts.length - 1])).rgb[0] - 198) < 8);
  for (const v of vs) v.close();
});

test('a viewer that stops reading skips pictures; the others keep the full rate', async () => {
  const src = new FakeUnit(480, 320);
  sources.set('c', src);
  src.push([0, 0, 0], true);
  const slow = viewer('c', true);
  const fast = viewer('c');
  await until(() => slow.parts.length === 1 && fast.parts.length >= 1, 10_000, "both viewers' first picture");
  // the passing of time is what is tested: a frame every 40 ms, and the encodes still due 100 ms
  // after the last one offered to the stalled viewer before its buffer is measured.
  for (let i = 0; i < 40; i++) {
    src.push([0, 0, 0], true);
    await sleep(40);
  }
  await sleep(100);
  const s = views.stats().c;
  assert.ok(fast.parts.length >= 10, `fast viewer got ${fast.parts.length}`);
  assert.equal(slow.parts.length, 1);
  // Noise JPEGs are ~200 kB each: the stalled viewer holds about one, not forty.
  assert.ok(s.maxBufferedBytes < 2 * fast.parts[0].length + 64 * 1024, `buffered ${s.maxBufferedBytes}`);
  slow.close();
  fast.close();
});

test('the live view of a real compositor and frame loop shows the scroll moving', async () => {
  const a = area({ id: 'a', scrollSpeed: 0 });
  const r = rig([a]);
  r.set(a, { text: 'A long departure text that scrolls right to left across the panel', setAt: Date.now() });
  const loop = new FrameLoop(r.compositor, async () => true);
  const feed = {
    frame: () => r.compositor.latest(),
    onFrame: (_id: string, fn: (f: Frame) => void) => r.compositor.subscribe(fn),
  };
  sources.set('real', liveSource(feed, { id: 'd1', width: 640, height: 160 }));
  loop.start();
  const v = viewer('real');
  // the passing of time is what is tested: the pictures of one second.
  await sleep(1000);
  v.close();
  loop.stop();
  assert.ok(v.parts.length >= 5 && v.parts.length <= 27, `${v.parts.length} pictures in 1 s`);
  assert.ok(
    new Set(v.parts.map((p) => p.toString('base64'))).size >= v.parts.length - 1,
    'each picture differs: the text moves',
  );
});
