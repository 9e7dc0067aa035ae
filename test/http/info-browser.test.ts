// /info as a technician sees it, in a real browser: Debian's Chromium driven by playwright-core.
// The Makefile installs chromium for the tests; a browser that cannot start fails the tests.
// INFO_SCREENSHOTS=<dir> also saves the page at each width checked, for looking at it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningService } from '../../src/main.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';

const API_KEY = 'api-key-for-the-tpcm';
const ADMIN_KEY = 'admin-key-for-the-office';
const LONG_TOKEN = 'https://timetable.example.com/stops/dworzec-gdanski/departures/platform-1/next';

let browser: Browser;
let sd: ServiceDir;
let svc: RunningService;

function config(): Record<string, unknown> {
  const c = baseConfig();
  c.timezone = 'Europe/Warsaw';
  c.unknownAreaKeys = 'ignore';
  c.security = { apiKey: API_KEY, adminKey: ADMIN_KEY };
  c.displays.board = {
    displayName: 'Concourse departures board, platform side',
    displayIp: '127.0.0.1',
    displayPort: '9002',
    controllerType: 'G20',
    displayWidth: '480',
    displayHeight: '120',
    // A missing framebuffer: a long red warning while the picture is still drawn.
    output: { driver: 'fbdev', device: '/dev/fb-missing-for-the-info-test' },
    layout: {
      board: {
        header: { coordinates: '0 0 319 59', type: 'text', fontSize: '30' },
        clock: { coordinates: '320 0 479 59', type: 'date', dateFormat: 'HH:mm:ss', fontSize: '30' },
        ticker: { coordinates: '0 60 479 119', type: 'text', fontSize: '30' },
      },
    },
  };
  return c;
}

const AREAS: Record<string, string[]> = { main: ['title', 'sign', 'pic'], board: ['header', 'clock', 'ticker'] };
const RESOLUTION: Record<string, string> = { main: '200x100', board: '480x120' };

async function send(query: string, status = 200): Promise<void> {
  const r = await get(svc, `/mlds?${query}`, { headers: { 'X-API-Key': API_KEY } });
  assert.equal(r.status, status, `${query}: ${r.text}`);
}

before(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new'] });
  sd = serviceDir(config());
  svc = await start(sd);
  await send('id=main&layout=l1&title=Running+late&sign=a&pic=logo&inumber=12');
  const ticker = encodeURIComponent(`Timetable at ${LONG_TOKEN}`);
  await send(`id=board&layout=board&header=Departures+to+Dworzec+Gda%C5%84ski&ticker=${ticker}&colour=amber`);
  // A fault on a display (its code is long), and one for a display that does not exist.
  await send('id=main&layout=l1&sign=no-such-sign', 400);
  await send('id=platform9&layout=departure&destination=Dworzec+Gda%C5%84ski&route=N22', 400);
  // A configuration fault with a long path: the running configuration stays.
  const bad = config();

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (bad.displays as Record<string, any>).board.layout.board.ticker.fontSizeOfTheTicker = '30';
  writeFileSync(sd.configFile, JSON.stringify(bad));
  assert.equal((await get(svc, '/reload_config', { headers: { 'X-API-Key': ADMIN_KEY } })).status, 400);
});

after(async () => {
  await browser?.close();
  await svc?.close();
  sd?.cleanup();
});

async function openInfo(width: number, refresh = '0.3'): Promise<{ page: Page; body: string }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const res = await page.goto(`${svc.url}/info?key=${encodeURIComponent(API_KEY)}&refresh=${refresh}`);
  assert.equal(res?.status(), 200);
  // Every live picture has received a frame: the cookie issued with the page opened /screenshot.
  await page.waitForFunction(
    () => [...document.querySelectorAll<HTMLImageElement>('img.live')].every((i) => i.naturalWidth > 0),
    null,
    { timeout: 10_000 },
  );
  return { page, body: await res!.text() };
}

const refreshes = (page: Page) => page.evaluate(() => Number(document.body.dataset.refreshes ?? 0));

test('/info in a browser: no key in the page, its live pictures load by cookie', async () => {
  const { page, body } = await openInfo(1280);
  try {
    for (const key of [API_KEY, ADMIN_KEY]) {
      assert.equal(body.includes(key), false, 'a key in the HTML');
      assert.equal(body.includes(encodeURIComponent(key)), false, 'an encoded key in the HTML');
    }
    const srcs = await page.$$eval('img.live', (imgs) => imgs.map((i) => (i as HTMLImageElement).src));
    assert.equal(srcs.length, 2);
    for (const src of srcs) assert.doesNotMatch(src, /key=/);
    // The cookie is invisible to the page's scripts.
    assert.equal(await page.evaluate(() => document.cookie), '');

    // A still screen's new picture shows at once, not at the stream's next keep-alive (10 s):
    // the title's white text leaves the blue band.
    // Red plus green over the live picture's top 200x50: their mean and their largest.
    const band = () =>
      page.evaluate(() => {
        const img = document.querySelector<HTMLImageElement>('section.display[data-id="main"] img.live')!;
        const c = document.createElement('canvas');
        [c.width, c.height] = [img.naturalWidth, img.naturalHeight];
        const g = c.getContext('2d')!;
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, 200, 50).data;
        let sum = 0;
        let max = 0;
        for (let i = 0; i < d.length; i += 4) {
          sum += d[i] + d[i + 1];
          max = Math.max(max, d[i] + d[i + 1]);
        }
        return { ink: sum / (d.length / 4), max };
      });
    assert.ok((await band()).ink > 10, 'the title text in the live picture');
    await send('id=main&layout=l1&title=');
    await until(async () => (await band()).max <= 60, 5000, 'the title text gone from the live picture');
    assert.ok((await band()).ink < 10);
  } finally {
    await page.close();
  }
});

test(
  '/info in a browser: after several refreshes every ' + 'card still holds its own display and its clock runs',
  async () => {
    const { page } = await openInfo(1280);
    try {
      const cards = () =>
        page.$$eval('#displays > section.display', (list) =>
          list.map((card) => ({
            id: (card as HTMLElement).dataset.id,
            heading: card.querySelector('h2')?.textContent ?? '',
            resolution: [...card.querySelectorAll('table.kv tr')]
              .find((r) => r.querySelector('th')?.textContent === 'Resolution')
              ?.querySelector('td')?.textContent,
            areas: [...card.querySelectorAll('table.areas tbody tr')].map((r) => (r as HTMLElement).dataset.area),
            picture: (card.querySelector('img.live') as (HTMLImageElement & { mark?: string }) | null)?.mark,
            pictureOf: new URL((card.querySelector('img.live') as HTMLImageElement).src).searchParams.get('id'),
          })),
        );
      const clock = () =>
        page.$eval(
          'section.display[data-id="board"] tr[data-area="clock"] td:nth-child(2)',
          (td) => td.textContent ?? '',
        );
      // Each picture element is marked: a refresh must keep it, not load a new one.
      await page.$$eval('img.live', (imgs) => {
        for (const i of imgs)
          (i as HTMLImageElement & { mark?: string }).mark = new URL((i as HTMLImageElement).src).searchParams.get(
            'id',
          )!;
      });
      const firstClock = await clock();
      assert.match(firstClock, /^\d\d:\d\d:\d\d$/);

      const seen = await refreshes(page);
      await page.waitForFunction((n) => Number(document.body.dataset.refreshes ?? 0) >= n + 4, seen, {
        timeout: 20_000,
      });
      await send('id=main&layout=l1&title=Changed+after+load');
      await page.waitForFunction(
        () =>
          document
            .querySelector('section.display[data-id="main"] tr[data-area="title"]')
            ?.textContent?.includes('Changed after load'),
        null,
        { timeout: 10_000 },
      );
      await page.waitForFunction(
        (t) =>
          document.querySelector('section.display[data-id="board"] tr[data-area="clock"] td:nth-child(2)')
            ?.textContent !== t,
        firstClock,
        { timeout: 10_000 },
      );

      const now = await cards();
      assert.deepEqual(
        now.map((c) => c.id),
        ['main', 'board'],
      );
      for (const c of now) {
        assert.match(c.heading, new RegExp(`^${c.id}\\b`), `heading of ${c.id}`);
        assert.equal(c.resolution, RESOLUTION[c.id!], `resolution on ${c.id}'s card`);
        assert.deepEqual(c.areas, AREAS[c.id!], `areas on ${c.id}'s card`);
        assert.equal(c.picture, c.id, `${c.id}'s card keeps its own picture element`);
        assert.equal(c.pictureOf, c.id);
      }
      assert.match(await clock(), /^\d\d:\d\d:\d\d$/);
      assert.notEqual(await clock(), firstClock, 'the clock advances');
    } finally {
      await page.close();
    }
  },
);

/**
 * Words split across two lines though they would fit one line of their box, text sticking
 * out of its card, the page's sideways overflow, pictures not at their natural width.
 */
function layoutFaults(): { split: string[]; outside: string[]; overflow: number; pictures: string[] } {
  const split: string[] = [];
  const outside: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    const parent = text.parentElement!;
    if (!text.data.trim() || parent.closest('script,style,#stale') || !parent.getClientRects().length) continue;
    const card = (parent.closest('.card') ?? document.body).getBoundingClientRect();
    const whole = document.createRange();
    whole.selectNodeContents(text);
    for (const r of whole.getClientRects()) {
      if (r.width > 0 && (r.right > card.right + 0.5 || r.left < card.left - 0.5))
        outside.push(
          `"${text.data.trim().slice(0, 40)}" at ${Math.round(r.left)}..${Math.round(r.right)}, card ` +
            `${Math.round(card.left)}..${Math.round(card.right)}`,
        );
    }
    let box: HTMLElement = parent;
    while (getComputedStyle(box).display.startsWith('inline') && box.parentElement) box = box.parentElement;
    const cs = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    // A break after a hyphen or a slash is where a person would break too.
    for (const m of text.data.matchAll(/[^\s/-]+[-/]?/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size < 2) continue;
      const probe = document.createElement('span');
      probe.style.whiteSpace = 'nowrap';
      probe.textContent = m[0];
      parent.append(probe);
      const width = probe.getBoundingClientRect().width;
      probe.remove();
      if (width <= room) split.push(`"${m[0]}" (${Math.round(width)} px in ${Math.round(room)} px)`);
    }
  }
  const pictures = [...document.querySelectorAll<HTMLImageElement>('img.live')].flatMap((img) => {
    const card = img.closest('section')!;
    const room = card.clientWidth - 24;
    const want = Math.min(img.naturalWidth, room);
    return Math.abs(img.getBoundingClientRect().width - want) > 1
      ? [`${img.alt}: ${img.getBoundingClientRect().width} px, natural ${img.naturalWidth}, card ${room}`]
      : [];
  });
  return {
    split,
    outside,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    pictures,
  };
}

test('/info in a browser: readable at 412 px and 1280 px, with the unit named at the top', async () => {
  for (const width of [412, 1280]) {
    const { page } = await openInfo(width, '3600');
    try {
      if (process.env.INFO_SCREENSHOTS) {
        mkdirSync(process.env.INFO_SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: path.join(process.env.INFO_SCREENSHOTS, `info-${width}.png`), fullPage: true });
      }
      const faults = await page.evaluate(layoutFaults);
      assert.deepEqual(faults.split, [], `words broken at ${width} px`);
      assert.deepEqual(faults.outside, [], `text outside its card at ${width} px`);
      assert.equal(faults.overflow, 0, `sideways scrolling at ${width} px`);
      assert.deepEqual(faults.pictures, [], `live pictures at ${width} px: natural width, at most the card's`);

      // The unit itself: its name in the title and on top, its addresses beside it.
      const title = await page.title();
      assert.ok(title.startsWith(hostname()), title);
      const top = await page.$eval('#facts', (el) => (el as HTMLElement).innerText);
      assert.ok(top.startsWith(hostname()), top);
      const status = await get(svc, '/status', { headers: { 'X-API-Key': API_KEY } });
      for (const a of (
        status.json.identity as { addresses: Array<{ address: string; interface: string; mac: string }> }
      ).addresses) {
        assert.ok(title.includes(a.address), `${a.address} in the title`);
        assert.match(top, new RegExp(`${a.address.replace(/\./g, '\\.')} ${a.interface}.*MAC ${a.mac}`));
      }
      // Times in the unit's zone to the second; a fault for an unknown display shows its query decoded.
      assert.match(top, /System time\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T\b/);
      assert.match(top, /Uptime\s+\d+ (s|min)/);
      assert.match(
        top,
        /Configuration\s+1 fault in the file \(below\), found .*; still running the configuration loaded \d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T/,
      );
      assert.match(top, /\/displays\/board\/layout\/board\/ticker\/fontSizeOfTheTicker: is not a known field/);
      assert.match(top, /MLDS_UNKNOWN_ID[^\n]*\n?.*destination=Dworzec Gdański/);
      const board = await page.$eval('section.display[data-id="board"]', (el) => (el as HTMLElement).innerText);
      assert.match(
        board,
        /Frames\s+sent \d+, missed \d+, dropped \d+\s+missed: frames the loop could not draw on time/,
      );
      assert.match(board, /Output error\s+open: ENOENT.*fb-missing-for-the-info-test/);
      assert.match(board, /Last frame\s+(none|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T, not sent)/);
      const main = await page.$eval('section.display[data-id="main"]', (el) => (el as HTMLElement).innerText);
      assert.match(main, /Last frame\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T, sent/);
      assert.match(main, /MLDS_UNKNOWN_PARAM_KEY/);
    } finally {
      await page.close();
    }
  }
});

test('/info in a browser: a page that cannot refresh says so instead of showing old facts as current', async () => {
  const { page } = await openInfo(412);
  try {
    assert.equal(await page.isVisible('#stale'), false);
    await page.route('**/info?*', (route) => route.abort());
    await page.waitForSelector('#stale', { state: 'visible', timeout: 10_000 });
    assert.match((await page.textContent('#stale')) ?? '', /^Not updated for \d+ s: the service does not answer$/);
    await page.unroute('**/info?*');
    await page.waitForSelector('#stale', { state: 'hidden', timeout: 10_000 });
  } finally {
    await page.close();
  }
});

test(
  "/info in a browser: a capability's card follows the refresh (the info screen brought back by /identify, " +
    'then gone)',
  async () => {
    const { page } = await openInfo(1280);
    const admin = { headers: { 'X-API-Key': ADMIN_KEY } };
    try {
      assert.equal(
        await page.$('section[data-component="boot"]'),
        null,
        'no boot card while every unit shows its content',
      );
      assert.equal((await get(svc, '/identify?seconds=120&id=board', admin)).status, 200);
      await page.waitForFunction(
        () =>
          document.querySelector('section[data-component="boot"]')?.textContent?.includes('info screen (/identify)'),
        null,
        { timeout: 10_000 },
      );
      const text = await page.$eval('section[data-component="boot"]', (el) => (el as HTMLElement).innerText);
      assert.match(text, /board/);
      assert.doesNotMatch(text, /\bmain\b/, 'only the unit asked for');
      assert.equal((await get(svc, '/identify?seconds=0', admin)).status, 200);
      await page.waitForFunction(() => document.querySelector('section[data-component="boot"]') === null, null, {
        timeout: 10_000,
      });
    } finally {
      await page.close();
    }
  },
);
