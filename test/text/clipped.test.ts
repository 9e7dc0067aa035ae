// A line wider than its area under overflow "pages" without wrap is cut at the edge: /status
// says `clipped` and by how many pixels, so do an MQTT confirmation and `mlds test`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { get, REPO, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';

// 7x13.bdf: every character 7 px wide. "Lotnisko Chopina  14 min" is 24 characters, 168 px;
// "Dworzec Centralny - Warszawa  5 min" 35 characters, 245 px: 53 px more than 192.
const FITS = 'Lotnisko Chopina  14 min';
const WIDE = 'Dworzec Centralny - Warszawa  5 min';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
let broker: Broker, sd: ServiceDir, svc: RunningService, w: Watcher;

const display = (defaultValue?: string) => ({
  displayWidth: '192',
  displayHeight: '40',
  output: { driver: 'virtual' },
  layout: {
    dep: {
      route: { coordinates: '0 0 191 12', type: 'text', font: '7x13.bdf', fontColor: '255 170 0' },
      dest: {
        coordinates: '0 13 191 39',
        type: 'text',
        font: '7x13.bdf',
        fontColor: '255 170 0',
        overflow: 'pages',
        ...(defaultValue ? { defaultValue } : {}),
      },
    },
  },
});

before(async () => {
  if (skip) return;
  broker = await new Broker().start();
  sd = serviceDir({
    effectDurationMs: '0',
    rateLimit: '100000',
    mqtt: { url: broker.url, unit: 'u1', keepalive: 5 },
    displays: { s: display() },
  });
  w = await Watcher.open(broker.url, ['mlds/u1/#']);
  svc = await start(sd);
  await until(() => w.on('mlds/u1/availability').length > 0, 5000, 'online');
});

after(async () => {
  const maybe = { svc, w, broker, sd } as Partial<{ svc: RunningService; w: Watcher; broker: Broker; sd: ServiceDir }>;
  await maybe.svc?.close();
  await maybe.w?.close();
  await maybe.broker?.cleanup();
  maybe.sd?.cleanup();
});

const dest = async () =>
  ((await get(svc, '/status')).json.displays as Array<{ areas: Array<Record<string, unknown>> }>)[0].areas.find(
    (a) => a.id === 'dest',
  )!;
const confirmOf = (inumber: string) =>
  w
    .on('mlds/u1/confirm')
    .map((m) => JSON.parse(m.payload) as Record<string, unknown>)
    .find((c) => c.inumber === inumber);

test(
  'pages without wrap: a line wider than the area says clipped and by how many pixels, on /status and in the ' +
    'MQTT confirmation',
  { skip },
  async () => {
    await w.publish(
      'mlds/u1/cmd',
      `id=s&layout=dep&route=175&dest=${encodeURIComponent(FITS)}%0AG%C5%82%C3%B3wny&inumber=c1`,
    );
    await until(() => confirmOf('c1') !== undefined, 5000, 'confirm c1');
    assert.equal(confirmOf('c1')!.message, 'shown');
    assert.deepEqual(await dest().then((a) => [a.fit, a.clippedPx]), ['as-is', undefined]);

    await w.publish(
      'mlds/u1/cmd',
      `id=s&layout=dep&route=175&dest=${encodeURIComponent(WIDE)}%0AG%C5%82%C3%B3wny&inumber=c2`,
    );
    await until(() => confirmOf('c2') !== undefined, 5000, 'confirm c2');
    assert.deepEqual(confirmOf('c2'), {
      inumber: 'c2',
      confirm: 1,
      id: 's',
      code: null,
      message: 'shown; area "dest" clipped by 53 px',
    });
    const a = await dest();
    assert.deepEqual([a.fit, a.fontSizeUsed, a.clippedPx], ['clipped', 13, 53]);
    assert.match((await get(svc, '/info')).text, /a line 53 px wider than the area is cut/);
  },
);

test(
  'mlds test warns of a configured text whose line pages ' + 'would cut, naming the display, layout, area and pixels',
  () => {
    const cfg = serviceDir({ displays: { s: display(WIDE) } });
    try {
      const r = spawnSync(
        process.execPath,
        [path.join(REPO, 'dist/cli.js'), 'test', '--config', cfg.configFile, '--out', path.join(cfg.dir, 'out')],
        { encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.match(
        r.stderr,
        /^mlds: warning: \/displays\/s\/layout\/dep\/dest: defaultValue "Dworzec Centralny - Warszawa {2}5 min" has a line 53 px wider than the area \(192 px\): its end is cut \(overflow "pages" without wrap\)$/m,
      );
      assert.match(r.stdout, /^ {2}s\/dep\/dest: fit clipped at 13 px \(53 px cut\)$/m);
    } finally {
      cfg.cleanup();
    }
  },
);
