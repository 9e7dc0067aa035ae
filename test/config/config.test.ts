import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import type { AreaOf } from '../../src/config/types.js';
import { baseConfig, serviceDir } from '../helpers/service.js';
import { configFaults, type Cfg } from '../helpers/config-faults.js';

const L1 = (c: Cfg) => c.displays.main.layout.l1;

const faultsOf = configFaults;

// [rule, a change that is valid, a change that breaks it, the path the fault must name]
const rules: Array<[string, (c: Cfg) => void, (c: Cfg) => void, string]> = [
  [
    'port range',
    (c) => {
      c.port = 1025;
    },
    (c) => {
      c.port = '1024';
    },
    '/port',
  ],
  [
    'port upper bound',
    (c) => {
      c.port = '65535';
    },
    (c) => {
      c.port = 65536;
    },
    '/port',
  ],
  [
    'port as a strict integer string',
    (c) => {
      c.port = '8080';
    },
    (c) => {
      c.port = '0x1F90';
    },
    '/port',
  ],
  [
    'displays required',
    () => {},
    (c) => {
      delete c.displays;
    },
    '/displays',
  ],
  [
    'coordinates form',
    (c) => {
      L1(c).title.coordinates = ' 0  0 199 49 ';
    },
    (c) => {
      L1(c).title.coordinates = '0 0 199';
    },
    '/displays/main/layout/l1/title/coordinates',
  ],
  [
    'coordinates x<=X',
    (c) => {
      L1(c).title.coordinates = '5 0 5 49';
    },
    (c) => {
      L1(c).title.coordinates = '6 0 5 49';
    },
    '/displays/main/layout/l1/title/coordinates',
  ],
  [
    'coordinates y<=Y',
    (c) => {
      L1(c).title.coordinates = '0 9 199 49';
    },
    (c) => {
      L1(c).title.coordinates = '0 50 199 49';
    },
    '/displays/main/layout/l1/title/coordinates',
  ],
  [
    'coordinates inside the display width',
    (c) => {
      L1(c).title.coordinates = '0 0 199 49';
    },
    (c) => {
      L1(c).title.coordinates = '0 0 200 49';
    },
    '/displays/main/layout/l1/title/coordinates',
  ],
  [
    'coordinates inside the display height',
    (c) => {
      L1(c).pic.coordinates = '100 50 199 99';
    },
    (c) => {
      L1(c).pic.coordinates = '100 50 199 100';
    },
    '/displays/main/layout/l1/pic/coordinates',
  ],
  [
    'fontSize up to the area height',
    (c) => {
      L1(c).title.fontSize = '50';
    },
    (c) => {
      L1(c).title.fontSize = '51';
    },
    '/displays/main/layout/l1/title/fontSize',
  ],
  [
    'display id up to 255 characters',
    (c) => {
      c.displays['d'.repeat(255)] = c.displays.main;
    },
    (c) => {
      c.displays['d'.repeat(256)] = c.displays.main;
    },
    '/displays',
  ],
  [
    'layout name up to 255 characters',
    (c) => {
      c.displays.main.layout['l'.repeat(255)] = L1(c);
    },
    (c) => {
      c.displays.main.layout['l'.repeat(256)] = L1(c);
    },
    '/displays/main/layout',
  ],
  [
    'area id up to 255 characters',
    (c) => {
      L1(c)['a'.repeat(255)] = { coordinates: '0 0 9 9', type: 'text' };
    },
    (c) => {
      L1(c)['a'.repeat(256)] = { coordinates: '0 0 9 9', type: 'text' };
    },
    '/displays/main/layout/l1',
  ],
  [
    'displayName up to 255 characters',
    (c) => {
      c.displays.main.displayName = 'n'.repeat(255);
    },
    (c) => {
      c.displays.main.displayName = 'n'.repeat(256);
    },
    '/displays/main/displayName',
  ],
  [
    'param key up to 255 characters',
    (c) => {
      L1(c).sign.params['k'.repeat(255)] = 'x';
    },
    (c) => {
      L1(c).sign.params['k'.repeat(256)] = 'x';
    },
    '/displays/main/layout/l1/sign/params',
  ],
  [
    'static text up to 255 characters',
    (c) => {
      L1(c).sign.params.a = 't'.repeat(255);
    },
    (c) => {
      L1(c).sign.params.a = 't'.repeat(256);
    },
    '/displays/main/layout/l1/sign/params/a',
  ],
  [
    'filename up to 255 characters',
    (c) => {
      L1(c).sign.font = 'DejaVuSans.ttf';
    },
    (c) => {
      L1(c).sign.font = 'f'.repeat(252) + '.ttf';
    },
    '/displays/main/layout/l1/sign/font',
  ],
  [
    'confirmPort range',
    (c) => {
      c.displays.main.confirmPort = '1025';
    },
    (c) => {
      c.displays.main.confirmPort = '80';
    },
    '/displays/main/confirmPort',
  ],
  [
    'fontColor RGB 0..255',
    (c) => {
      L1(c).title.fontColor = '0 128 255';
    },
    (c) => {
      L1(c).title.fontColor = '0 128 256';
    },
    '/displays/main/layout/l1/title/fontColor',
  ],
  [
    'fontColor has three values',
    (c) => {
      L1(c).title.fontColor = '1 2 3';
    },
    (c) => {
      L1(c).title.fontColor = '1 2 3 4';
    },
    '/displays/main/layout/l1/title/fontColor',
  ],
  [
    'backgroundColor alpha 0..127',
    (c) => {
      L1(c).title.backgroundColor = '1 2 3 127';
    },
    (c) => {
      L1(c).title.backgroundColor = '1 2 3 128';
    },
    '/displays/main/layout/l1/title/backgroundColor',
  ],
  [
    'scrollSpeed 0..8',
    (c) => {
      L1(c).title.scrollSpeed = '8';
    },
    (c) => {
      L1(c).title.scrollSpeed = '9';
    },
    '/displays/main/layout/l1/title/scrollSpeed',
  ],
  [
    'dispEffect 1..15',
    (c) => {
      L1(c).title.dispEffect = 15;
    },
    (c) => {
      L1(c).title.dispEffect = '0';
    },
    '/displays/main/layout/l1/title/dispEffect',
  ],
  [
    'clearEffect 1..15',
    (c) => {
      L1(c).title.clearEffect = '1';
    },
    (c) => {
      L1(c).title.clearEffect = '16';
    },
    '/displays/main/layout/l1/title/clearEffect',
  ],
  [
    'displayIp is IPv4',
    (c) => {
      c.displays.main.displayIp = '10.0.0.5';
      c.displays.main.output = { driver: 'virtual' };
    },
    (c) => {
      c.displays.main.displayIp = '10.0.0.256';
    },
    '/displays/main/displayIp',
  ],
  [
    'confirmIp is IPv4',
    (c) => {
      c.displays.main.confirmIp = '192.168.1.9';
    },
    (c) => {
      c.displays.main.confirmIp = 'feedback.local';
    },
    '/displays/main/confirmIp',
  ],
  [
    'cron has 6 fields',
    (c) => {
      c.crons = [{ type: 'loadLastRequest', cron: '0 */5 * * * *' }];
    },
    (c) => {
      c.crons = [{ type: 'loadLastRequest', cron: '*/5 * * * *' }];
    },
    '/crons/0/cron',
  ],
  [
    'cron fields are valid',
    (c) => {
      c.crons = [{ type: 'loadLastRequest', cron: '30 0 6 * * 1-5' }];
    },
    (c) => {
      c.crons = [{ type: 'loadLastRequest', cron: '61 0 6 * * *' }];
    },
    '/crons/0/cron',
  ],
  [
    'cron type',
    (c) => {
      c.crons = [{ type: 'url', value: 'http://127.0.0.1/x', cron: '0 0 * * * *' }];
    },
    (c) => {
      c.crons = [{ type: 'reboot', cron: '0 0 * * * *' }];
    },
    '/crons/0/type',
  ],
  [
    'poller needs url and interval',
    (c) => {
      c.pollers = [{ url: 'http://127.0.0.1:8080/cmd', interval: '30' }];
    },
    (c) => {
      c.pollers = [{ url: 'http://127.0.0.1:8080/cmd' }];
    },
    '/pollers/0/interval',
  ],
  [
    'image params name existing files',
    (c) => {
      L1(c).pic.params.gif = 'arrow.gif';
    },
    (c) => {
      L1(c).pic.params.gone = 'missing.png';
    },
    '/displays/main/layout/l1/pic/params/gone',
  ],
  [
    'image params stay inside images/ (no ..)',
    (c) => {
      L1(c).pic.params.jpg = 'bus.jpg';
    },
    (c) => {
      L1(c).pic.params.up = '../config.png';
    },
    '/displays/main/layout/l1/pic/params/up',
  ],
  [
    'image params are not absolute',
    () => {},
    (c) => {
      L1(c).pic.params.abs = '/etc/logo.png';
    },
    '/displays/main/layout/l1/pic/params/abs',
  ],
  [
    'image params have an image extension',
    () => {},
    (c) => {
      L1(c).pic.params.txt = 'notes.txt';
    },
    '/displays/main/layout/l1/pic/params/txt',
  ],
  [
    'video params are mp4',
    (c) => {
      L1(c).vid = { coordinates: '0 0 9 9', type: 'video', params: {} };
    },
    (c) => {
      L1(c).vid = { coordinates: '0 0 9 9', type: 'video', params: { a: 'clip.avi' } };
    },
    '/displays/main/layout/l1/vid/params/a',
  ],
  [
    'audio params are mp3 or wav',
    (c) => {
      L1(c).aud = { coordinates: '0 0 9 9', type: 'audio', params: {} };
    },
    (c) => {
      L1(c).aud = { coordinates: '0 0 9 9', type: 'audio', params: { a: 'chime.ogg' } };
    },
    '/displays/main/layout/l1/aud/params/a',
  ],
  [
    'fonts exist in fonts/',
    (c) => {
      L1(c).title.font = 'DejaVuSans-Bold.ttf';
    },
    (c) => {
      L1(c).title.font = 'Comic.ttf';
    },
    '/displays/main/layout/l1/title/font',
  ],
  [
    'area type',
    () => {},
    (c) => {
      L1(c).title.type = 'marquee';
    },
    '/displays/main/layout/l1/title/type',
  ],
  [
    'align values',
    (c) => {
      L1(c).title.align = 'right';
    },
    (c) => {
      L1(c).title.align = 'justify';
    },
    '/displays/main/layout/l1/title/align',
  ],
  [
    'properties apply to their area types',
    () => {},
    (c) => {
      L1(c).pic.scrollSpeed = '2';
    },
    '/displays/main/layout/l1/pic/scrollSpeed',
  ],
  [
    'unknown fields are named',
    () => {},
    (c) => {
      L1(c).title.fontsize = '12';
    },
    '/displays/main/layout/l1/title/fontsize',
  ],
  [
    'booleans as JSON or strings',
    (c) => {
      c.displays.main.sensorBrightness = true;
      L1(c).title.textFromStart = 'false';
    },
    (c) => {
      c.displays.main.sensorBrightness = 'yes';
    },
    '/displays/main/sensorBrightness',
  ],
  [
    'web params are URLs',
    (c) => {
      L1(c).web = { coordinates: '0 0 9 9', type: 'web', params: { a: 'https://example.org/' }, xy: '10 20' };
    },
    (c) => {
      L1(c).web = { coordinates: '0 0 9 9', type: 'web', params: { a: 'file:///etc/passwd' } };
    },
    '/displays/main/layout/l1/web/params/a',
  ],
  [
    'dateFormat letters',
    (c) => {
      L1(c).clk = { coordinates: '0 0 99 19', type: 'date', dateFormat: "EEE d MMM 'at' HH:mm" };
    },
    (c) => {
      L1(c).clk = { coordinates: '0 0 99 19', type: 'date', dateFormat: 'HH:mm at' };
    },
    '/displays/main/layout/l1/clk/dateFormat',
  ],
  [
    'dateOffset is signed hours',
    (c) => {
      L1(c).clk = { coordinates: '0 0 99 19', type: 'date', dateOffset: '+5.5' };
    },
    (c) => {
      L1(c).clk = { coordinates: '0 0 99 19', type: 'date', dateOffset: 'UTC+2' };
    },
    '/displays/main/layout/l1/clk/dateOffset',
  ],
  [
    'timezone is an IANA name',
    (c) => {
      c.timezone = 'Europe/Warsaw';
    },
    (c) => {
      c.timezone = 'Mars/Olympus';
    },
    '/timezone',
  ],
  [
    'output driver',
    (c) => {
      c.displays.main.output = { driver: 'fbdev', device: '/dev/fb1' };
    },
    (c) => {
      c.displays.main.output = { driver: 'hdmi' };
    },
    '/displays/main/output',
  ],
  [
    'startScreen image exists',
    (c) => {
      c.displays.main.startScreen = { image: 'logo.png', imageTtl: '5', loadLastRequest: 'true' };
    },
    (c) => {
      c.displays.main.startScreen = { image: 'boot.png' };
    },
    '/displays/main/startScreen/image',
  ],
  [
    'unknownAreaKeys values',
    (c) => {
      c.unknownAreaKeys = 'ignore';
    },
    (c) => {
      c.unknownAreaKeys = 'drop';
    },
    '/unknownAreaKeys',
  ],
];

for (const [rule, good, bad, where] of rules) {
  test(`config rule: ${rule}`, () => {
    assert.deepEqual(faultsOf(good), [], `${rule}: the valid variant was refused`);
    const faults = faultsOf(bad);
    assert.ok(
      faults.some((f) => f.path === where),
      `${rule}: expected a fault at ${where}, got ${JSON.stringify(faults)}`,
    );
    for (const f of faults) assert.ok(f.message.length > 5, `fault at ${f.path} has a plain message`);
  });
}

test('at most 99 physical units', () => {
  const many = (n: number) => (c: Cfg) => {
    const d = c.displays.main;
    c.displays = {};
    for (let i = 0; i < n; i++) c.displays[`d${i}`] = { ...d, displayPort: String(2000 + i) };
  };
  assert.deepEqual(faultsOf(many(99)), []);
  const faults = faultsOf(many(100));
  assert.ok(
    faults.some((f) => f.path === '/displays' && /99/.test(f.message)),
    JSON.stringify(faults),
  );
});

test('virtual displays sharing one output form one unit, composited in config order', () => {
  const c = baseConfig();
  c.displays.second = { ...c.displays.main };
  c.displays.far = { ...c.displays.main, displayPort: '9002' };
  const sd = serviceDir(c);
  try {
    const cfg = loadConfig(sd.configFile);
    assert.deepEqual(
      cfg.units.map((u) => u.displayIds),
      [['main', 'second'], ['far']],
    );
    assert.equal(cfg.displays[0].id, 'main');
  } finally {
    sd.cleanup();
  }
});

test('links that lead out of images/ are refused', () => {
  const faults = faultsOf(
    (c) => {
      L1(c).pic.params.ln = 'escape.png';
    },
    (dir) => {
      writeFileSync(path.join(dir, 'outside.png'), 'x');
      symlinkSync(path.join(dir, 'outside.png'), path.join(dir, 'images/escape.png'));
    },
  );
  assert.ok(
    faults.some((f) => f.path === '/displays/main/layout/l1/pic/params/ln' && /outside/.test(f.message)),
    JSON.stringify(faults),
  );
});

test('$include loads an object from a file inside the service directory', () => {
  const c = baseConfig();
  c.displays.main.layout.l2 = { $include: 'layouts/l2.json' };
  const sd = serviceDir(c);
  try {
    mkdirSync(path.join(sd.dir, 'layouts'));
    writeFileSync(
      path.join(sd.dir, 'layouts/l2.json'),
      JSON.stringify({ big: { coordinates: '0 0 199 99', type: 'text', fontSize: '60' } }),
    );
    const cfg = loadConfig(sd.configFile);
    assert.equal(cfg.displays[0].layouts.get('l2')?.areas[0].id, 'big');
  } finally {
    sd.cleanup();
  }
  assert.ok(
    faultsOf((x) => {
      x.displays.main.layout.l2 = { $include: '../outside.json' };
    }).some((f) => f.path === '/displays/main/layout/l2'),
  );
  assert.ok(
    faultsOf((x) => {
      x.displays.main.layout.l2 = { $include: 'absent.json' };
    }).some((f) => f.path === '/displays/main/layout/l2' && /not found/.test(f.message)),
  );
});

test('numbers and booleans written as strings are converted', () => {
  const sd = serviceDir(baseConfig());
  try {
    const cfg = loadConfig(sd.configFile);
    const a = cfg.displays[0].layouts.get('l1')!.areas[0] as AreaOf<'text'>;
    assert.equal(cfg.port, 9199);
    assert.deepEqual([a.x, a.y, a.width, a.height, a.fontSize], [0, 0, 200, 50, 30]);
    assert.deepEqual(a.backgroundColor, { r: 0, g: 0, b: 255, a: 1 });
  } finally {
    sd.cleanup();
  }
});

test('a file with many faults reports them all at once', () => {
  const faults = faultsOf((c) => {
    c.port = '80';
    c.displays.main.confirmIp = 'x';
    L1(c).title.fontColor = '999 0 0';
    L1(c).title.scrollSpeed = '12';
    L1(c).sign.coordinates = '0 50 300 99';
    L1(c).pic.params.bad = 'nothere.png';
    c.crons = [{ type: 'data', cron: '* * *', value: 'id=main&layout=l1' }];
  });
  const paths = faults.map((f) => f.path).sort();
  assert.deepEqual(paths, [
    '/crons/0/cron',
    '/displays/main/confirmIp',
    '/displays/main/layout/l1/pic/params/bad',
    '/displays/main/layout/l1/sign/coordinates',
    '/displays/main/layout/l1/title/fontColor',
    '/displays/main/layout/l1/title/scrollSpeed',
    '/port',
  ]);
});

test('invalid JSON is one clear fault (a cut-off file: test/config/edge.test.ts)', () => {
  const sd = serviceDir({});
  try {
    writeFileSync(sd.configFile, '{ "displays": { ');
    assert.throws(
      () => loadConfig(sd.configFile),
      (err: ConfigError) =>
        err.faults.length === 1 &&
        /^config\.json: the file ends early \(line 1, column 17\)/.test(err.faults[0].message),
    );
  } finally {
    sd.cleanup();
  }
});
