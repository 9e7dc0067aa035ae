import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { createCanvas, loadImage } from 'canvas';
import { InfoScreen, layoutFor, type InfoFacts } from '../../src/boot/info-screen.js';
import type { Overlay } from '../../src/render/compositor.js';
import { VERSION } from '../../src/version.js';
import { BOOT } from '../../src/capability/boot.js';
import { FakeClock } from '../helpers/clock.js';
import { get, near, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';

/** Addresses as `ip` reports them: a source independent of the service's own (node's os module). */
function ipv4(): InfoFacts['addresses'] {
  const links = JSON.parse(execFileSync('ip', ['-j', '-4', 'addr'], { encoding: 'utf8' })) as Array<{
    ifname: string;
    addr_info: Array<{ local: string; scope: string }>;
  }>;
  return links.flatMap((l) =>
    l.addr_info.filter((a) => a.scope !== 'host').map((a) => ({ interface: l.ifname, address: a.local })),
  );
}

function display(w: number, h: number, port: string, extra: Record<string, unknown>, bg: string) {
  return {
    displayWidth: String(w),
    displayHeight: String(h),
    displayIp: '127.0.0.1',
    displayPort: port,
    output: { driver: 'virtual' },
    layout: {
      l1: {
        bg: {
          coordinates: `0 0 ${w - 1} ${h - 1}`,
          type: 'static',
          fontSize: String(Math.min(20, h - 2)),
          backgroundColor: bg,
          params: { a: '' },
        },
      },
    },
    ...extra,
  };
}

function config(extra: { small?: object; big?: object; top?: object } = {}) {
  return {
    port: '9199',
    effectDurationMs: '0',
    rateLimit: '100000',
    ...extra.top,
    displays: {
      small: display(
        64,
        32,
        '9001',
        {
          infoScreenTtl: '3',
          startScreen: { image: 'logo.png', imageTtl: '2', loadLastRequest: true },
          ...extra.small,
        },
        '255 0 0',
      ),
      big: display(1920, 1080, '9002', { infoScreenTtl: '3', ...extra.big }, '0 255 0'),
    },
  };
}

function facts(svc: RunningService, id: string, w: number, h: number): InfoFacts {
  return {
    hostname: hostname(),
    addresses: ipv4(),
    port: svc.port,
    version: VERSION,
    displays: [{ id, width: w, height: h }],
  };
}

/** What `overlay` draws on a w x h unit at `now`, as RGBA bytes. */
function render(overlay: Overlay, w: number, h: number, now: number): Uint8ClampedArray {
  const c = createCanvas(w, h);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, w, h);
  overlay.draw(ctx, w, h, now);
  return ctx.getImageData(0, 0, w, h).data;
}

async function shot(svc: RunningService, id: string): Promise<Uint8ClampedArray> {
  const res = await get(svc, `/screenshot?id=${id}&format=png`);
  assert.equal(res.status, 200);
  const img = await loadImage(res.bytes);
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  return c.getContext('2d').getImageData(0, 0, img.width, img.height).data;
}

const pixel = (d: Uint8ClampedArray, w: number, x: number, y: number): [number, number, number] => {
  const i = (y * w + x) * 4;
  return [d[i], d[i + 1], d[i + 2]];
};

/** Waits until the display's screenshot equals `expected` byte for byte. */
async function shows(svc: RunningService, id: string, expected: Uint8ClampedArray, what: string): Promise<void> {
  let last: Uint8ClampedArray | undefined;
  await until(
    async () => Buffer.compare(Buffer.from((last = await shot(svc, id))), Buffer.from(expected)) === 0,
    5000,
    what,
  ).catch((err: Error) => {
    const differing = last ? last.reduce((n, v, i) => n + (v !== expected[i] ? 1 : 0), 0) : -1;
    throw new Error(`${err.message} (${differing} bytes differ)`);
  });
}

async function showsColour(
  svc: RunningService,
  id: string,
  w: number,
  colour: [number, number, number],
  what: string,
): Promise<void> {
  await until(async () => near(pixel(await shot(svc, id), w, 2, 2), colour, 2), 5000, what);
}

async function withService(
  sd: ServiceDir,
  clock: FakeClock,
  fn: (svc: RunningService) => Promise<void>,
  extra = {},
): Promise<void> {
  const svc = await start(sd, { clock, recheckSeconds: 0, ...extra });
  try {
    await fn(svc);
  } finally {
    await svc.close();
  }
}

test(
  'boot: black, the info screen with the real address, ' + 'the logo, then the replayed and the newly sent content',
  async () => {
    assert.ok(ipv4().length > 0, 'this machine has a non-loopback IPv4 address to show');
    const sd = serviceDir(config());
    try {
      // A first run leaves a saved request for `small` to replay.
      await withService(sd, new FakeClock(), async (svc) => {
        assert.equal((await get(svc, '/mlds?id=small&layout=l1&bg=a')).status, 200);
      });
      const clock = new FakeClock();
      const t0 = clock.now();
      await withService(sd, clock, async (svc) => {
        assert.equal(layoutFor(64, 32), 'tiny');
        assert.equal(layoutFor(1920, 1080), 'large');
        const bigInfo = render(new InfoScreen(facts(svc, 'big', 1920, 1080), t0), 1920, 1080, t0);
        const smallInfo = render(new InfoScreen(facts(svc, 'small', 64, 32), t0), 64, 32, t0);
        await shows(svc, 'big', bigInfo, 'the 1080p info screen');
        await shows(svc, 'small', smallInfo, 'the 64x32 info screen');
        // The address is what the picture shows: another address draws another picture.
        const wrong = { ...facts(svc, 'big', 1920, 1080), addresses: [{ interface: 'eth9', address: '10.99.99.99' }] };
        assert.notDeepEqual(render(new InfoScreen(wrong, t0), 1920, 1080, t0), bigInfo);
        assert.ok(
          bigInfo.some((v, i) => i % 4 !== 3 && v > 200),
          'the info screen has bright text',
        );

        // A request during the boot screens is accepted, stored, and not shown yet.
        assert.equal((await get(svc, '/mlds?id=big&layout=l1&bg=a')).status, 200);
        await shows(svc, 'big', bigInfo, 'still the info screen after a request');
        const st = (await get(svc, '/status')).json as {
          components: { boot: { units: Array<{ displays: string[]; showing: string }> } };
        };
        assert.deepEqual(
          st.components.boot.units.map((u) => u.showing),
          ['info', 'info'],
        );

        // The 64x32 address is wider than the module: it scrolls.
        clock.advance(500);
        const moved = render(new InfoScreen(facts(svc, 'small', 64, 32), t0), 64, 32, t0 + 500);
        assert.notDeepEqual(moved, smallInfo, 'the address moved');
        await shows(svc, 'small', moved, 'the scrolled address');

        clock.advance(2500); // 3 s: info screens end
        await showsColour(
          svc,
          'big',
          1920,
          [0, 255, 0],
          'the request sent during boot, shown when the boot screens end',
        );
        const logo = await loadImage(`${sd.dir}/images/logo.png`);
        const { LogoScreen } = await import('../../src/boot/logo-screen.js');
        const { preloadImage } = await import('../../src/render/images.js');
        assert.ok(logo.width > 0);
        await shows(
          svc,
          'small',
          render(new LogoScreen(await preloadImage(`${sd.dir}/images/logo.png`)), 64, 32, t0),
          'the logo',
        );

        clock.advance(1999);
        await shows(
          svc,
          'small',
          render(new LogoScreen(await preloadImage(`${sd.dir}/images/logo.png`)), 64, 32, t0),
          'the logo until imageTtl ends',
        );
        clock.advance(1); // 5 s
        await showsColour(svc, 'small', 64, [255, 0, 0], 'the replayed request');
        const after = (await get(svc, '/status')).json as {
          components: { boot: { units: Array<{ showing: string }> } };
        };
        assert.deepEqual(
          after.components.boot.units.map((u) => u.showing),
          ['content', 'content'],
        );
      });
    } finally {
      sd.cleanup();
    }
  },
);

test('/identify brings the info screen back on one unit for N seconds; it is an admin endpoint', async () => {
  const sd = serviceDir(
    config({
      small: { infoScreenTtl: '0', startScreen: { loadLastRequest: true } },
      big: { infoScreenTtl: '0' },
      top: { security: { adminKey: 'admin-key-1' } },
    }),
  );
  try {
    const clock = new FakeClock();
    await withService(sd, clock, async (svc) => {
      const admin = { headers: { 'X-API-Key': 'admin-key-1' } };
      assert.equal((await get(svc, '/mlds?id=small&layout=l1&bg=a')).status, 200);
      await showsColour(svc, 'small', 64, [255, 0, 0], 'content at once (no boot screens)');
      assert.equal((await get(svc, '/identify?seconds=5')).status, 403);
      for (const bad of ['seconds=abc', 'seconds=-1', 'seconds=3601', 'seconds=1&seconds=2']) {
        const r = await get(svc, `/identify?${bad}`, admin);
        assert.equal(r.status, 400, bad);
        assert.equal(r.json.field, 'seconds');
      }
      assert.equal((await get(svc, '/identify?seconds=5&id=nope', admin)).json.field, 'id');
      const r = await get(svc, '/identify?seconds=5&id=small', admin);
      assert.equal(r.status, 200);
      assert.deepEqual(
        (r.json.units as Array<{ displays: string[] }>).map((u) => u.displays),
        [['small']],
      );
      const info = render(new InfoScreen(facts(svc, 'small', 64, 32), clock.now()), 64, 32, clock.now());
      await shows(svc, 'small', info, 'the info screen on /identify');
      assert.ok(near(pixel(await shot(svc, 'big'), 1920, 2, 2), [0, 0, 0], 2), 'the other unit is left alone');
      clock.advance(5000);
      await showsColour(svc, 'small', 64, [255, 0, 0], 'content again after N seconds');
      // 0 ends it early.
      await get(svc, '/identify?seconds=60', admin);
      await shows(
        svc,
        'small',
        render(new InfoScreen(facts(svc, 'small', 64, 32), clock.now()), 64, 32, clock.now()),
        'identify again',
      );
      await get(svc, '/identify?seconds=0', admin);
      await showsColour(svc, 'small', 64, [255, 0, 0], 'content after seconds=0');
    });
  } finally {
    sd.cleanup();
  }
});

test('completeUrls is visited once boot ends, and retried with a growing delay after a failure', async () => {
  const hits: number[] = [];
  let answer = 500;
  const server: Server = createServer((req, res) => {
    hits.push(Date.now());
    res.statusCode = answer;
    res.end('x');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const sd = serviceDir(
    config({
      small: {
        infoScreenTtl: '2',
        startScreen: { completeUrls: `http://127.0.0.1:${port}/booted`, loadLastRequest: true },
      },
      big: { infoScreenTtl: '0' },
    }),
  );
  try {
    const clock = new FakeClock();
    await withService(sd, clock, async (svc) => {
      const visits = () => svc.api.component(BOOT)!.status().completeUrls;
      clock.advance(1999);
      // A timer due by now has fired inside advance(), and a visit starting is counted at once.
      assert.deepEqual(visits(), [], 'no visit started during the boot screens');
      assert.equal(hits.length, 0, 'not during the boot screens');
      clock.advance(1);
      await until(() => hits.length === 1, 3000, 'the first visit');
      await until(
        () => JSON.stringify(svc.api.status().components.boot).includes('"attempts":1,'),
        3000,
        'the failure recorded',
      );
      answer = 200;
      const failed = visits()[0];
      clock.advance(4999);
      assert.deepEqual(visits()[0], failed, 'no retry started before its delay is over');
      assert.equal(hits.length, 1, 'the retry waits its delay');
      clock.advance(1);
      await until(() => hits.length === 2, 3000, 'the retry');
      await until(
        () => JSON.stringify(svc.api.status().components.boot).includes('"result":"ok"'),
        3000,
        'ok on /status',
      );
    });
  } finally {
    server.close();
    sd.cleanup();
  }
});
