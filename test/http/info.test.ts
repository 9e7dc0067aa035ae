import assert from 'node:assert/strict';
import { hostname, networkInterfaces } from 'node:os';
import { test } from 'node:test';
import { renderInfoPage } from '../../src/http/info/page.js';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';

/** What a page says once its markup is gone. */
const words = (html: string) =>
  html
    .replace(/<style>[^]*?<\/style>|<script>[^]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

test('/info: facts a technician needs, and a failing output as a warning while the others run', async () => {
  const c = baseConfig();
  c.displays.lcd = { ...c.displays.main, displayPort: '9002', output: { driver: 'fbdev', device: '/dev/fb-missing' } };
  const sd = serviceDir(c);
  const svc = await start(sd);
  try {
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Running&inumber=12')).status, 200);
    const r = await get(svc, '/info');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /text\/html; charset=utf-8/);
    assert.equal(r.headers.get('set-cookie'), null, 'no key configured, no cookie');
    const html = r.text;
    assert.match(html, /<meta name="viewport"/);
    assert.match(html, /System time<\/th><td><span class="when">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+<\/span>/);
    assert.match(html, /mlds \d+\.\d+\.\d+/);
    assert.match(html, /Resolution<\/th><td>200x100/);
    assert.match(html, /Configuration<\/th><td class="ok">ok/);
    assert.match(
      words(html),
      /Last command \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+ id =main layout =l1 title =Running inumber =12/,
    );
    // The missing framebuffer is red on its own display; the other display keeps working.
    const lcd = html.slice(html.indexOf('data-id="lcd"'));
    assert.match(lcd, /Output error<\/th><td class="bad">open: .*fb-missing/);
    const status = await get(svc, '/status');
    const displays = status.json.displays as Array<{ id: string; output: { lastResult?: string } }>;
    assert.equal(displays.find((d) => d.id === 'main')!.output.lastResult, 'ok');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test('/status and /info name the unit: hostname, IPv4 addresses with interface and MAC', async () => {
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    const expected = Object.entries(networkInterfaces()).flatMap(([name, list]) =>
      (list ?? [])
        .filter((a) => a.family === 'IPv4' && !a.internal)
        .map((a) => ({ interface: name, address: a.address, mac: a.mac })),
    );
    assert.deepEqual((await get(svc, '/status')).json.identity, { hostname: hostname(), addresses: expected });
    const html = (await get(svc, '/info')).text;
    const title = /<title>([^<]*)<\/title>/.exec(html)![1];
    assert.ok(title.startsWith(hostname()), title);
    for (const a of expected) {
      assert.ok(title.includes(a.address), title);
      assert.ok(words(html).includes(`${a.address} ${a.interface} MAC ${a.mac}`), `${a.address} at the top`);
    }
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test(
  '/info with keys configured: no key in the page; its ' + 'pictures get a cookie that opens /screenshot only',
  async () => {
    const apiKey = 'api-key-info-1234';
    const adminKey = 'admin-key-info-5678';
    const c = baseConfig();
    c.security = { apiKey, adminKey };
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      for (const key of [apiKey, adminKey]) {
        const r = await get(svc, `/info?key=${encodeURIComponent(key)}`);
        assert.equal(r.status, 200);
        assert.equal(r.text.includes(key), false, 'the key in the page');
        assert.doesNotMatch(r.text, /key=/);
        const cookie = r.headers.get('set-cookie')!;
        assert.match(cookie, /^mlds_view=[\w-]+; Path=\/screenshot; .*HttpOnly; SameSite=Strict$/);
        const pair = cookie.split(';')[0];
        assert.equal((await get(svc, '/screenshot?id=main', { headers: { cookie: pair } })).status, 200);
        assert.equal((await get(svc, '/status', { headers: { cookie: pair } })).status, 401);
      }
      assert.equal((await get(svc, '/info')).status, 401);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('/info?refresh= sets how often the page updates; a bad value is a 400 naming it', async () => {
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    assert.match((await get(svc, '/info')).text, /data-refresh-ms="5000"/);
    assert.match((await get(svc, '/info?refresh=0.5')).text, /data-refresh-ms="500"/);
    for (const bad of ['0', 'abc', '-1', '99999', '']) {
      const r = await get(svc, `/info?refresh=${bad}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.json.code, 'MLDS_BAD_PARAMETER');
      assert.equal(r.json.field, 'refresh');
    }
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test(
  'the /info page: local times with seconds and zone, ' + 'uptime in days, problems in red, faults with their query',
  () => {
    const html = renderInfoPage({
      version: '9.9.9',
      identity: {
        hostname: 'ctrl-7',
        addresses: [{ interface: 'eth0', address: '10.1.2.3', mac: 'aa:bb:cc:dd:ee:ff' }],
      },
      time: '2026-11-21T19:14:05.000Z',
      timezone: 'Europe/Warsaw',
      uptimeSeconds: 2 * 86400 + 3 * 3600 + 14 * 60 + 9,
      config: { status: 'ok', file: '/etc/mlds/config.json', loadedAt: '2026-07-01T10:00:00.000Z' },
      problems: [
        { source: 'log', message: 'the log disk is full; 12 lines dropped', since: '2026-11-21T19:00:00.000Z' },
      ],
      recentFaults: [
        {
          at: '2026-11-21T19:13:00.000Z',
          code: 'MLDS_UNKNOWN_ID',
          message: 'no display "x"',
          query: 'id=x&layout=l&destination=Dworzec+Gda%C5%84ski&bad=%ZZ',
        },
      ],
      displays: [],
    });
    const text = words(html);
    assert.match(html, /<title>ctrl-7 10\.1\.2\.3 · mlds status<\/title>/);
    assert.match(text, /System time 2026-11-21 20:14:05 CET/);
    assert.match(text, /Uptime 2 d 3 h 14 min since 2026-11-19 16:59:56 CET/);
    // Summer time in the same zone.
    assert.match(text, /loaded 2026-07-01 12:00:00 CEST/);
    assert.match(html, /<ul class="problems bad"><li><b>log<\/b>: the log disk is full; 12 lines dropped/);
    assert.match(text, /since 2026-11-21 20:00:00 CET/);
    assert.match(
      text,
      /20:13:00 CET MLDS_UNKNOWN_ID : no display "x" id =x layout =l destination =Dworzec Gdański bad =%ZZ/,
    );

    const ny = words(
      renderInfoPage({
        time: '2026-01-05T12:00:00.000Z',
        timezone: 'America/New_York',
        uptimeSeconds: 59,
        config: {},
        displays: [],
      }),
    );
    assert.match(ny, /System time 2026-01-05 07:00:00 EST/);
    assert.match(ny, /Uptime 59 s/);
    assert.match(
      words(
        renderInfoPage({
          time: '2026-01-05T12:00:00.000Z',
          timezone: 'UTC',
          uptimeSeconds: 3 * 3600,
          config: {},
          displays: [],
        }),
      ),
      /2026-01-05 12:00:00 UTC .*Uptime 3 h 0 min/,
    );
  },
);
