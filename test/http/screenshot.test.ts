import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { baseConfig, decode, get, near, nextFrame, serviceDir, start, type Pixels, type ServiceDir } from '../helpers/service.js';

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
      base: { ...main, layout: { fill: { bg: { coordinates: '0 0 199 99', type: 'text', backgroundColor: '255 0 0' } } } },
      top: {
        ...main,
        displayWidth: '200', displayHeight: '100',
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
  after(async () => { await svc.close(); sd.cleanup(); });

  test('before any command the display is black', async () => {
    const { px } = await shot(svc, 'top');
    assert.equal(px.width, 200);
    assert.equal(px.height, 100);
    for (const [x, y] of [[0, 0], [100, 50], [199, 99]]) assert.ok(near(px.at(x, y), [0, 0, 0]), `(${x},${y}) = ${px.at(x, y)}`);
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
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(whiteInside((await shot(svc, 'top', 'png')).px) > 50, 'the scrolling text is not visible inside its area');
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
    for (const bad of ['id=top&layout=band&words=x&pic=missing', 'id=top&layout=nope', 'id=top&layout=band&words=%FF', 'id=top&layout=band&fontColor[words]=1_2']) {
      assert.equal((await get(svc, `/mlds?${bad}`)).status, 400);
    }
    await new Promise((r) => setTimeout(r, 100));
    const after = await shot(svc, 'top');
    assert.ok(before.bytes.equals(after.bytes), 'screenshot changed after faulty requests');
  });

  test('the screenshot has the display\'s exact size and ?id= picks the display', async () => {
    const main = await shot(svc, 'base');
    assert.deepEqual([main.px.width, main.px.height], [200, 100]);
    const dflt = await get(svc, '/screenshot');
    assert.deepEqual([(await decode(dflt.bytes)).width], [200]);
    const bad = await get(svc, '/screenshot?id=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'MLDS_UNKNOWN_ID');
  });
});
