// Faults that used to strike only at run time (a cron or a mapper naming what the layouts lack,
// a static defaultValue that is no key, displays merged for want of an address) are found at
// load, with their JSON path, by the parser and the CLI; overlapping areas are a warning.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, type ConfigFault } from '../../src/config/faults.js';
import { parseConfig } from '../../src/config/load.js';
import { MAX_OVERLAP_WARNINGS } from '../../src/config/cross-checks.js';
import { checkConfigQueries } from '../../src/control/config-queries.js';
import { REPO, baseConfig, get, serviceDir, start } from '../helpers/service.js';

type Config = ReturnType<typeof baseConfig>;
const EXAMPLES = path.join(REPO, 'examples');
const faultsOf = (c: Config): ConfigFault[] => {
  try {
    parseConfig(JSON.stringify(c), EXAMPLES, 'config.json', [checkConfigQueries]);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.faults;
    throw err;
  }
};
const only = (c: Config, pathWanted: string, message: RegExp) => {
  const faults = faultsOf(c);
  assert.equal(faults.length, 1, JSON.stringify(faults));
  assert.equal(faults[0].path, pathWanted);
  assert.match(faults[0].message, message);
};

test('a cron data query is checked as /mlds checks a request: unknown id, layout, area, params key', () => {
  const cases: Array<[string, RegExp]> = [
    ['id=nope&layout=l1&title=x', /no display "nope"/],
    ['id=main&layout=bord&title=x', /has no layout "bord"/],
    ['id=main&layout=l1&row4=x', /has no area "row4"/],
    ['id=main&layout=l1&sign=zz', /zz/],
    ['id=main&layout=l1&title=%ZZ', /percent-encoding/],
  ];
  for (const [value, message] of cases) {
    const c = baseConfig();
    c.crons = [
      { type: 'sendInfo', value: 'http://127.0.0.1:9000/x', cron: '0 * * * * *' },
      { type: 'data', value, cron: '0 * * * * *' },
    ];
    only(c, '/crons/1/value', message);
  }
  const good = baseConfig();
  good.crons = [{ type: 'data', value: 'id=main&layout=l1&sign=a&title=Hello&inumber=7', cron: '0 * * * * *' }];
  assert.deepEqual(faultsOf(good), []);
  // unknownAreaKeys "ignore" forgives a TPCM, not a query written beside the layouts.
  good.unknownAreaKeys = 'ignore';
  good.crons[0].value = 'id=main&layout=l1&row4=x';
  only(good, '/crons/0/value', /has no area "row4"/);
});

test('a poller mapper naming an id, a layout or an area the configuration lacks is a fault at that name', () => {
  const withMapper = (mapper: Record<string, unknown>) => {
    const c = baseConfig();
    c.pollers = [{ url: 'http://127.0.0.1:9000/feed.json', interval: '10', mapper }];
    return c;
  };
  only(withMapper({ id: 'led9', layout: 'l1', areas: { title: '/a' } }), '/pollers/0/mapper/id', /no display "led9"/);
  only(
    withMapper({ id: 'main', layout: 'board', areas: { title: '/a' } }),
    '/pollers/0/mapper/layout',
    /no layout "board"/,
  );
  only(
    withMapper({ id: 'main', layout: 'l1', areas: { title: '/a', 'row/4': '/rows/3' } }),
    '/pollers/0/mapper/areas/row~14',
    /no area "row\/4"/,
  );
  assert.deepEqual(faultsOf(withMapper({ id: 'main', layout: 'l1', areas: { title: '/a', sign: '/b' } })), []);
});

test("a static area's defaultValue must be a key of its params; text and image areas are not held to it", () => {
  const c = baseConfig();
  c.displays.main.layout.l1.sign.defaultValue = 'Welcome';
  only(
    c,
    '/displays/main/layout/l1/sign/defaultValue',
    /"Welcome" is not a key of this static area's params \("a", "b", "def"\)/,
  );
  const ok = baseConfig();
  ok.displays.main.layout.l1.title.defaultValue = 'Anything';
  ok.displays.main.layout.l1.pic.defaultValue = 'logo.png';
  assert.deepEqual(faultsOf(ok), []);
});

test(
  'displays that would share a unit only because they leave out displayIp/displayPort are a fault; named ' +
    'sharing is not',
  () => {
    const two = () => {
      const c = baseConfig();
      c.displays.lcd = { ...structuredClone(c.displays.main), displayWidth: '1280', displayHeight: '720' };
      return c;
    };
    const noAddress = two();
    for (const d of Object.values(noAddress.displays) as Array<Record<string, unknown>>) {
      delete d.displayIp;
      delete d.displayPort;
    }
    const faults = faultsOf(noAddress);
    assert.deepEqual(
      faults.map((f) => f.path),
      ['/displays/main/displayIp', '/displays/lcd/displayIp'],
    );
    assert.match(faults[1].message, /shares the unit "virtual:127.0.0.1:" with "main" by default/);
    // No output and no address: the default output is shared the same way.
    const noOutput = two();
    for (const d of Object.values(noOutput.displays) as Array<Record<string, unknown>>) {
      delete d.displayIp;
      delete d.output;
    }
    assert.ok(faultsOf(noOutput).some((f) => f.path === '/displays/lcd/displayIp'));
    // The same written address composites two displays on one unit, as the decisions say.
    const named = two();
    const cfg = parseConfig(JSON.stringify(named), EXAMPLES);
    assert.deepEqual(
      cfg.units.map((u) => u.displayIds),
      [['main', 'lcd']],
    );
    // One display without an address is the common case.
    const single = baseConfig();
    delete single.displays.main.displayIp;
    delete single.displays.main.displayPort;
    assert.deepEqual(faultsOf(single), []);
  },
);

test(
  'overlapping areas of one layout are a warning listing ' + 'each pair and the shared rectangle; the list is capped',
  () => {
    const c = baseConfig();
    c.displays.main.layout.l1.clock = { coordinates: '90 40 120 60', type: 'date' };
    const cfg = parseConfig(JSON.stringify(c), EXAMPLES);
    assert.deepEqual(
      cfg.warnings.map((w) => [w.path, w.message]),
      [
        ['/displays/main/layout/l1', 'areas "title" and "clock" overlap at 90 40 120 49; "clock" draws on top'],
        ['/displays/main/layout/l1', 'areas "sign" and "clock" overlap at 90 50 99 60; "clock" draws on top'],
        ['/displays/main/layout/l1', 'areas "pic" and "clock" overlap at 100 50 120 60; "clock" draws on top'],
      ],
    );
    // Corners are inclusive: 0..99 and 100..199 touch without overlapping.
    assert.deepEqual(parseConfig(JSON.stringify(baseConfig()), EXAMPLES).warnings, []);
    const many = baseConfig();
    many.displays.main.layout.l2 = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`a${i}`, { coordinates: '0 0 9 9', type: 'text' }]),
    );
    const w = parseConfig(JSON.stringify(many), EXAMPLES).warnings;
    assert.equal(w.length, MAX_OVERLAP_WARNINGS + 1);
    assert.equal(w.at(-1)!.message, `${190 - MAX_OVERLAP_WARNINGS} more overlapping area pair(s) not listed`);
  },
);

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'src/cli.ts'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: REPO,
  });

test('mlds test prints each of these faults with its path and exits 78; overlaps alone are warnings and exit 0', () => {
  const c = baseConfig();
  c.crons = [{ type: 'data', value: 'id=main&layout=bord', cron: '0 * * * * *' }];
  c.pollers = [
    {
      url: 'http://127.0.0.1:9000/feed.json',
      interval: '10',
      mapper: { id: 'main', layout: 'l1', areas: { row4: '/rows/3' } },
    },
  ];
  c.displays.main.layout.l1.sign.defaultValue = 'Def';
  c.displays.lcd = { ...structuredClone(c.displays.main), displayIp: undefined, displayPort: undefined };
  delete c.displays.main.displayIp;
  delete c.displays.main.displayPort;
  const sd = serviceDir(c);
  try {
    const r = cli('test', '--config', sd.configFile, '--out', path.join(sd.dir, 'out'));
    assert.equal(r.status, 78, r.stderr);
    for (const p of [
      '/crons/0/value: display "main" has no layout "bord"',
      '/pollers/0/mapper/areas/row4: layout "l1" has no area "row4"',
      '/displays/main/layout/l1/sign/defaultValue: "Def" is not a key',
      '/displays/lcd/layout/l1/sign/defaultValue',
      '/displays/main/displayIp: is missing',
      '/displays/lcd/displayIp: is missing',
    ]) {
      assert.ok(r.stderr.includes(p), `${p} in\n${r.stderr}`);
    }
  } finally {
    sd.cleanup();
  }
  const o = baseConfig();
  o.displays.main.layout.l1.clock = { coordinates: '90 40 120 60', type: 'date' };
  const sd2 = serviceDir(o);
  try {
    const r = cli('test', '--config', sd2.configFile, '--out', path.join(sd2.dir, 'out'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stderr,
      /mlds: warning: \/displays\/main\/layout\/l1: areas "title" and "clock" overlap at 90 40 120 49/,
    );
  } finally {
    sd2.cleanup();
  }
});

test(
  'a reload refuses a cron naming a missing layout (400, ' + 'the fault with its path); /status lists overlap warnings',
  async () => {
    const c = baseConfig();
    c.displays.main.layout.l1.clock = { coordinates: '90 40 120 60', type: 'date' };
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      const config = (await get(svc, '/status')).json.config as { warnings: ConfigFault[] };
      assert.equal(config.warnings.length, 3);
      assert.equal(config.warnings[0].path, '/displays/main/layout/l1');
      c.crons = [{ type: 'data', value: 'id=main&layout=bord', cron: '0 * * * * *' }];
      writeFileSync(sd.configFile, JSON.stringify(c));
      const r = await get(svc, '/reload_config');
      assert.equal(r.status, 400);
      assert.match(r.text, /\/crons\/0\/value/);
      assert.match(r.text, /has no layout \\"bord\\"/);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
