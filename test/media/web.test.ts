// Web areas in Debian's Chromium: a page served here on loopback, with known colour blocks,
// shows in its area cut out at `xy`; a page that cannot load shows the defaultValue's page
// (or blank) and the fault; the browser runs only while a web area is shown.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CHROMIUM } from '../../src/media/browser.js';
import type { RunningService } from '../../src/main.js';
import { baseConfig, decode, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { descendants, near, type Rgb } from './helpers.js';
import { skipReason } from '../helpers/skip.js';
import { redrawn } from '../helpers/wait.js';

// Four 100x50 blocks: red, green / blue, yellow. The area (100x50) is cut at xy 50 25, so
// each quarter of it shows a different block.
const BLOCKS = `<!doctype html><body style="margin:0;background:#fff">
<div style="position:absolute;left:0;top:0;width:100px;height:50px;background:#f00"></div>
<div style="position:absolute;left:100px;top:0;width:100px;height:50px;background:#0f0"></div>
<div style="position:absolute;left:0;top:50px;width:100px;height:50px;background:#00f"></div>
<div style="position:absolute;left:100px;top:50px;width:100px;height:50px;background:#ff0"></div></body>`;
const QUARTERS: Array<[number, number, Rgb]> = [
  [25, 12, [255, 0, 0]],
  [75, 12, [0, 255, 0]],
  [25, 37, [0, 0, 255]],
  [75, 37, [255, 255, 0]],
];
const BACKGROUND: Rgb = [30, 30, 30];

let server: Server;
let base = '';
let closedPort = 0;
let changing = 0;

before(async () => {
  server = createServer((req, res) => {
    // /changing: a different colour on each load, so a refresh shows.
    const body =
      req.url === '/changing'
        ? `<body style="margin:0;background:${++changing % 2 ? '#f0f' : '#0ff'}"></body>`
        : BLOCKS;
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'Content-Type': 'text/html' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nothing listens on: taken, then given back.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});
after(() => {
  server.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function config(): Record<string, any> {
  const c = baseConfig();
  c.webRefreshSeconds = '1';
  const params = {
    blocks: `${base}/`,
    down: `http://127.0.0.1:${closedPort}/`,
    missing: `${base}/missing`,
    changing: `${base}/changing`,
  };
  c.displays.main.layout = {
    w: {
      page: { coordinates: '0 0 99 49', type: 'web', xy: '50 25', params, backgroundColor: '30 30 30' },
      fallback: {
        coordinates: '100 0 199 49',
        type: 'web',
        xy: '50 25',
        params,
        defaultValue: `${base}/`,
        backgroundColor: '30 30 30',
      },
    },
    t: { other: { coordinates: '0 0 199 99', type: 'text', fontSize: '40' } },
  };
  return c;
}

const browsers = () => descendants('chromium');

// The Makefile installs Chromium; a root without it (make test-arm64's) says so instead of failing.
const noBrowser = skipReason(
  existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (set MLDS_CHROMIUM to another)`,
);

describe('a web area', { skip: noBrowser }, () => {
  let sd: ServiceDir;
  let svc: RunningService;
  before(async () => {
    sd = serviceDir(config());
    svc = await start(sd);
  });
  after(async () => {
    await svc?.close();
    sd.cleanup();
  });

  const send = async (q: string) => {
    const r = await get(svc, `/mlds?id=main&${q}`);
    assert.equal(r.status, 200, r.text);
  };
  const shot = async () => decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
  const areaFault = (id: string) =>
    (svc.api.status().displays as Array<{ areas: Array<{ id: string; fault?: string }> }>)[0].areas.find(
      (a) => a.id === id,
    )?.fault;

  test('no browser runs while no web area is shown', async () => {
    await send('layout=t&other=Hello');
    // the passing of time is what is tested: no browser starts within 300 ms of a layout without web areas.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(browsers(), []);
  });

  test('a loopback page with colour blocks shows in the area, cut out at xy', async () => {
    await send('layout=w&page=blocks&fallback=blocks');
    // The second area (100 px to the right on the display) shows the same page, cut the same way.
    const both = (px: Awaited<ReturnType<typeof shot>>) =>
      QUARTERS.every(([x, y, c]) => near(px.at(x, y), c, 8) && near(px.at(100 + x, y), c, 8));
    await until(async () => both(await shot()), 15_000, 'the blocks in both areas');
    assert.equal(areaFault('page'), undefined);
    assert.ok(browsers().length >= 1, 'no browser process');
  });

  test('an unreachable URL shows blank with the fault; with a defaultValue, that page', async () => {
    // From another layout, so nothing of the blocks shown before is left in either area.
    await send('layout=t&other=Hello');
    await send('layout=w&page=down&fallback=down');
    let last = '';
    await until(
      async () => {
        const c = (await shot()).at(125, 12);
        last = JSON.stringify({ page: areaFault('page'), fallback: areaFault('fallback'), pixel: c });
        return areaFault('page') !== undefined && areaFault('fallback') !== undefined && near(c, [255, 0, 0], 8);
      },
      15_000,
      "the faults and the defaultValue's page",
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${last}`);
    });
    assert.match(areaFault('page')!, new RegExp(`127\\.0\\.0\\.1:${closedPort}`));
    assert.match(areaFault('page')!, /ERR_CONNECTION_REFUSED/);
    const px = await shot();
    assert.ok(near(px.at(50, 25), BACKGROUND, 4), `the failed area shows ${px.at(50, 25)}`);
    for (const [x, y, c] of QUARTERS)
      assert.ok(near(px.at(100 + x, y), c, 8), `the defaultValue's page is not shown at (${100 + x}, ${y})`);
    const info = (await get(svc, '/info')).text;
    assert.ok(info.includes('ERR_CONNECTION_REFUSED'), '/info does not show the fault');
  });

  test('an HTTP error status is a fault too', async () => {
    await send('layout=w&page=missing&fallback=blocks');
    await until(() => /HTTP 404/.test(areaFault('page') ?? ''), 15_000, 'the 404 fault');
  });

  test('the page is taken again every webRefreshSeconds', async () => {
    await send('layout=w&page=changing&fallback=blocks');
    const colours = new Set<string>();
    await until(
      async () => {
        const c = (await shot()).at(50, 25);
        if (near(c, [255, 0, 255], 8) || near(c, [0, 255, 255], 8)) colours.add(c.join());
        return colours.size === 2;
      },
      15_000,
      'the page to change on a refresh',
    );
  });

  test('the browser closes when no web area is shown, and none is left after switches', async () => {
    for (let i = 0; i < 10; i++) {
      await send(i % 2 === 0 ? 'layout=w&page=blocks' : 'layout=t&other=Hello');
      // The frame loop draws the layout (which starts or ends the browser's page) before it is switched away.
      await redrawn(svc, 'main');
    }
    await until(() => browsers().length === 0, 10_000, 'the browser to close');
    const media = (svc.api.status().components as Record<string, { browser: { running: boolean; pages: number } }>)
      .media;
    assert.deepEqual([media.browser.running, media.browser.pages], [false, 0]);
  });
});
