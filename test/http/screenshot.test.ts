import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Koa from 'koa';
import { Router } from '@koa/router';
import type { RunningService } from '../../src/main.js';
import type { ServiceApi } from '../../src/http/api.js';
import { errors } from '../../src/http/middleware.js';
import { routeTable } from '../../src/http/access.js';
import { screenshotRoutes } from '../../src/http/routes/screenshot.js';
import { Screenshots, screenshotTotals } from '../../src/http/screenshots.js';
import { LiveViews } from '../../src/http/stream.js';
import { underEmulation } from '../helpers/emulation.js';
import {
  baseConfig,
  exampleConfig,
  decode,
  get,
  near,
  nextFrame,
  serviceDir,
  start,
  until,
  type Pixels,
  type ServiceDir,
} from '../helpers/service.js';

/** Sends a command and waits until the frame containing it has been drawn. */
async function show(svc: RunningService, id: string, query: string): Promise<void> {
  const seq = svc.api.frame(id)?.seq ?? 0;
  const r = await get(svc, `/mlds?${query}`);
  assert.equal(r.status, 200, r.text);
  await nextFrame(svc, id, seq);
}

async function shot(svc: RunningService, id: string, format = 'jpeg'): Promise<{ bytes: Buffer; px: Pixels }> {
  const r = await get(svc, `/screenshot?id=${id}&format=${format}`);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), format === 'png' ? 'image/png' : 'image/jpeg');
  return { bytes: r.bytes, px: await decode(r.bytes) };
}

describe('screenshots', () => {
  let sd: ServiceDir;
  let svc: RunningService;
  before(async () => {
    const c = baseConfig();
    const main = c.displays.main;
    // A lower virtual display filling red, and an upper one on the same output with a half-transparent blue band.
    c.displays = {
      base: {
        ...main,
        layout: { fill: { bg: { coordinates: '0 0 199 99', type: 'text', backgroundColor: '255 0 0' } } },
      },
      top: {
        ...main,
        displayWidth: '200',
        displayHeight: '100',
        layout: {
          band: {
            glass: { coordinates: '0 20 199 39', type: 'text', backgroundColor: '0 0 255 64', fontSize: '10' },
            words: { coordinates: '20 60 119 89', type: 'text', fontSize: '24', fontColor: '255 255 255' },
            pic: { coordinates: '120 50 199 99', type: 'image', params: { logo: 'logo.png' } },
          },
        },
      },
    };
    sd = serviceDir(c);
    svc = await start(sd);
  });
  after(async () => {
    await svc.close();
    sd.cleanup();
  });

  test('before any command the display is black', async () => {
    const { px } = await shot(svc, 'top');
    assert.equal(px.width, 200);
    assert.equal(px.height, 100);
    for (const [x, y] of [
      [0, 0],
      [100, 50],
      [199, 99],
    ])
      assert.ok(near(px.at(x, y), [0, 0, 0]), `(${x},${y}) = ${px.at(x, y)}`);
  });

  test('background with GD alpha blends over the lower virtual display', async () => {
    await show(svc, 'base', 'id=base&layout=fill');
    await show(svc, 'top', 'id=top&layout=band');
    const { px } = await shot(svc, 'top');
    // Outside the band: the lower display's red shows through.
    assert.ok(near(px.at(10, 5), [255, 0, 0]), `above the band ${px.at(10, 5)}`);
    assert.ok(near(px.at(10, 50), [255, 0, 0]), `below the band ${px.at(10, 50)}`);
    // Alpha 64 of 127 transparent = opacity 63/127: blue over red.
    const o = 63 / 127;
    const expect: [number, number, number] = [Math.round(255 * (1 - o)), 0, Math.round(255 * o)];
    assert.ok(near(px.at(100, 30), expect, 8), `in the band ${px.at(100, 30)}, expected ${expect}`);
  });

  test('text pixels appear only inside their area, static or scrolling', async () => {
    const withoutWords = await shot(svc, 'top', 'png');
    const whiteInside = (px: Pixels): number => {
      let inside = 0;
      for (let y = 0; y < 100; y++) {
        for (let x = 0; x < 200; x++) {
          const [r, g, b] = px.at(x, y);
          const white = r > 200 && g > 200 && b > 200;
          const inWords = x >= 20 && x <= 119 && y >= 60 && y <= 89;
          const inPic = x >= 120 && y >= 50;
          if (white && inWords) inside++;
          if (white && !inWords && !inPic) assert.fail(`white text pixel outside its area at (${x},${y})`);
        }
      }
      return inside;
    };
    await show(svc, 'top', 'id=top&layout=band&words=WWW');
    const fitting = await shot(svc, 'top', 'png');
    assert.ok(whiteInside(fitting.px) > 100, 'too few text pixels inside the area');
    assert.ok(!withoutWords.bytes.equals(fitting.bytes));
    // Longer than the area: it scrolls in from the right edge and must stay clipped to the area.
    await show(svc, 'top', 'id=top&layout=band&words=WWWWWWWWWWWWWWWWWWWW');
    // Every picture until then is checked for pixels outside the area too.
    await until(
      async () => whiteInside((await shot(svc, 'top', 'png')).px) > 50,
      10_000,
      'the scrolling text visible inside its area',
    );
  });

  test('an image larger than its area is scaled down keeping its aspect ratio, centred', async () => {
    await show(svc, 'top', 'id=top&layout=band&pic=logo');
    const { px } = await shot(svc, 'top');
    // logo.png is 400x400 #003f7f; the area is 80x50, so it becomes 50x50 at x 135..184.
    // The area has no background, so beside the logo the lower display's red shows.
    assert.ok(near(px.at(137, 52), [0, 63, 127]), `inside the logo ${px.at(137, 52)}`);
    assert.ok(near(px.at(125, 75), [255, 0, 0]), `left of the logo ${px.at(125, 75)}`);
    assert.ok(near(px.at(195, 75), [255, 0, 0]), `right of the logo ${px.at(195, 75)}`);
  });

  test('a faulty request leaves the screenshot byte-identical', async () => {
    await show(svc, 'top', 'id=top&layout=band&words=Stable&pic=logo');
    const before = await shot(svc, 'top');
    for (const bad of [
      'id=top&layout=band&words=x&pic=missing',
      'id=top&layout=nope',
      'id=top&layout=band&words=%FF',
      'id=top&layout=band&fontColor[words]=1_2',
    ]) {
      assert.equal((await get(svc, `/mlds?${bad}`)).status, 400);
    }
    // the passing of time is what is tested: nothing is drawn within 100 ms of the faulty requests.
    await new Promise((r) => setTimeout(r, 100));
    const after = await shot(svc, 'top');
    assert.ok(before.bytes.equals(after.bytes), 'screenshot changed after faulty requests');
  });

  test("the screenshot has the display's exact size and ?id= picks the display", async () => {
    const main = await shot(svc, 'base');
    assert.deepEqual([main.px.width, main.px.height], [200, 100]);
    const dflt = await get(svc, '/screenshot');
    assert.deepEqual([(await decode(dflt.bytes)).width], [200]);
    const bad = await get(svc, '/screenshot?id=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'MLDS_UNKNOWN_ID');
  });
});

describe('screenshot encoding (off the event loop, once per frame)', () => {
  let sd: ServiceDir;
  let svc: RunningService;
  before(async () => {
    const c = baseConfig();
    // Two displays on one unit: the smaller one's picture is the top-left of the unit's frame.
    c.displays.small = {
      ...c.displays.main,
      displayWidth: '120',
      displayHeight: '60',
      layout: {
        s: {
          box: {
            coordinates: '10 10 69 39',
            type: 'text',
            fontSize: '20',
            fontColor: '0 255 0',
            backgroundColor: '80 0 0 40',
          },
        },
      },
    };
    sd = serviceDir(c);
    svc = await start(sd);
    await show(svc, 'main', 'id=main&layout=l1&title=Pixels&sign=a&pic=bus');
    await show(svc, 'small', 'id=small&layout=s&box=Hi');
  });
  after(async () => {
    await svc.close();
    sd.cleanup();
  });

  test("the PNG decodes to exactly the frame's pixels, for a display smaller than its unit too", async () => {
    for (const [id, w, h] of [
      ['main', 200, 100],
      ['small', 120, 60],
    ] as const) {
      const frame = svc.api.frame(id)!;
      const png = (await get(svc, `/screenshot?id=${id}&format=png`)).bytes;
      assert.equal(svc.api.frame(id), frame, 'the frame changed during the test');
      const px = await decode(png);
      assert.deepEqual([px.width, px.height], [w, h]);
      for (let y = 0; y < h; y++) {
        const want = frame.data.subarray(y * frame.width * 4, (y * frame.width + w) * 4);
        const got = px.data.subarray(y * w * 4, (y + 1) * w * 4);
        if (!Buffer.from(want).equals(Buffer.from(got))) assert.fail(`${id}: row ${y} differs from the frame`);
      }
    }
  });

  test('forty concurrent requests for one frame make one encode per format', async () => {
    await show(svc, 'main', 'id=main&layout=l1&title=Once&sign=b&pic=logo');
    const frame = svc.api.frame('main');
    const before = screenshotTotals.encodes;
    const png = await Promise.all(Array.from({ length: 40 }, () => get(svc, '/screenshot?id=main&format=png')));
    assert.equal(svc.api.frame('main'), frame, 'the frame changed during the test');
    assert.deepEqual(
      png.map((r) => r.status),
      Array(40).fill(200),
    );
    assert.ok(
      png.every((r) => r.bytes.equals(png[0].bytes)),
      'the requests got different images',
    );
    assert.equal(screenshotTotals.encodes - before, 1);
    const jpeg = await Promise.all(Array.from({ length: 40 }, () => get(svc, '/screenshot?id=main')));
    assert.deepEqual(
      jpeg.map((r) => r.status),
      Array(40).fill(200),
    );
    // The same frame asked again later is answered from the finished images.
    assert.equal((await get(svc, '/screenshot?id=main&format=png')).status, 200);
    assert.equal(screenshotTotals.encodes - before, 2);
  });
});

describe('screenshot answers while the encoder is busy', () => {
  test('a request that finds the queue full gets 503 with Retry-After; the others are served', async () => {
    const held: Array<() => void> = [];
    const shots = new Screenshots({
      maxConcurrent: 1,
      maxQueued: 1,
      encode: () => new Promise((r) => held.push(() => r(Buffer.from('img')))),
    });
    const displays = ['a', 'b', 'c'].map((id) => ({ id, width: 4, height: 2 }));
    const frame = { width: 4, height: 2, data: new Uint8Array(32), seq: 1 };
    const api = {
      config: () => ({ displays, displayById: new Map(displays.map((d) => [d.id, d])) }),
      frame: () => frame,
    } as unknown as ServiceApi;
    const router = new Router();
    screenshotRoutes(routeTable(router, api), api, new LiveViews(), shots);
    const app = new Koa();
    app.use(errors({ info() {}, warn() {}, error() {} }));
    app.use(router.routes());
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const running = get({ url }, '/screenshot?id=a&format=png');
      await until(() => held.length === 1, 3000, 'the first encode');
      const queued = get({ url }, '/screenshot?id=b&format=png');
      await until(() => shots.stats().queued === 1, 3000, 'the second request to queue');
      const refused = await get({ url }, '/screenshot?id=c&format=png');
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(refused.json.code, 'MLDS_UNAVAILABLE');
      held[0]();
      await until(() => held.length === 2, 3000, 'the queued encode');
      held[1]();
      assert.deepEqual([(await running).status, (await queued).status], [200, 200]);
    } finally {
      server.close();
    }
  });
});

describe(
  'a 1080p screenshot poller and the frame loop',
  {
    skip: underEmulation(
      'a 1080p PNG takes over a second to encode, so the 3 s window holds fewer than the 4 screenshots the ratio needs',
    ),
  },
  () => {
    let sd: ServiceDir;
    let svc: RunningService;
    before(async () => {
      // The example: a 640x160 LED display and a 1920x1080 LCD, on units of their own, both scrolling.
      const cfg = exampleConfig();
      cfg.rateLimit = '100000';
      // A long destination that moves: as plain text it scrolls up through the area (a MULTI page that cannot fit is
      // refused).
      cfg.displays.led1.layout.departure.destination.markup = 'none';
      sd = serviceDir(cfg);
      svc = await start(sd);
      const long = encodeURIComponent('Lotnisko Chopina - Terminal A - Airport via Centrum and the long way round');
      await show(svc, 'led1', `id=led1&layout=departure&route=175&destination=${long}`);
      await show(svc, 'lcd1', `id=lcd1&layout=board&header=dep&logo=logo&lines=175&ticker=${long}`);
    });
    after(async () => {
      await svc.close();
      sd.cleanup();
    });

    const drawn = () =>
      (svc.api.status().displays as Array<{ id: string; frames: { rendered: number } }>).find((d) => d.id === 'led1')!
        .frames.rendered;

    test(
      'the LED display draws at least half as many frames ' + "while a client polls the LCD's PNG on two connections",
      async (t) => {
        const PERIOD = 3000;
        // the passing of time is what is tested: frames drawn in two windows of PERIOD ms.
        const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
        const quiet0 = drawn();
        await wait(PERIOD);
        const quiet = drawn() - quiet0;
        let polling = true;
        let shots = 0;
        const encodes0 = screenshotTotals.encodes;
        const busy0 = drawn();
        const pollers = [0, 1].map(async () => {
          while (polling) {
            const r = await get(svc, '/screenshot?id=lcd1&format=png');
            assert.equal(r.status, 200);
            shots++;
          }
        });
        await wait(PERIOD);
        const busy = drawn() - busy0;
        polling = false;
        await Promise.all(pollers);
        assert.ok(quiet > 20, `the LED display is not scrolling (${quiet} frames)`);
        assert.ok(shots >= 4 && screenshotTotals.encodes - encodes0 >= 2, `the poller got ${shots} screenshots`);
        const ratio = busy / quiet;
        t.diagnostic(`LED frames ${busy} while polling (${shots} screenshots), ${quiet} without: ${ratio.toFixed(2)}`);
        assert.ok(ratio >= 0.5, `LED frames drawn while polling / without: ${busy} / ${quiet} = ${ratio.toFixed(2)}`);
      },
    );
  },
);
