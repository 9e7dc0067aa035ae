import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { packConfiguration } from '../../src/config/archive/pack.js';
import { baseConfig, serviceDir } from '../helpers/service.js';
import { configFaults, type Cfg } from '../helpers/config-faults.js';

function faultsOf(
  title: Record<string, unknown>,
  setup?: (dir: string) => void,
): Array<{ path: string; message: string }> {
  return configFaults((c) => Object.assign(c.displays.main.layout.l1.title, title), setup);
}

const AT = '/displays/main/layout/l1/title';

test('every sign-text field is accepted in its documented form', () => {
  assert.deepEqual(
    faultsOf({
      font: '5x7.bdf',
      fontSize: '14',
      antialias: 'none',
      wrap: 'true',
      lineSpacing: '2',
      valign: 'top',
      overflow: 'pages',
      pageSeconds: '2.5',
      fit: 'shrink',
      minFontSize: '7',
      fonts: ['6x10.bdf', 'DejaVuSans.ttf'],
      graphics: ['bus.png'],
      markup: 'multi',
      scrollDirection: 'right',
    }),
    [],
  );
});

test('sign-text faults name the field', () => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [
      { font: '7x13.bdf', fontSize: '20' },
      '/fontSize',
      /20 does not suit the bitmap font 7x13\.bdf: use its pixel size or a whole multiple \(13, 26, 39\)/,
    ],
    [{ antialias: 'off' }, '/antialias', /./],
    [{ overflow: 'marquee' }, '/overflow', /./],
    [{ minFontSize: '10' }, '/minFontSize', /only with fit "shrink"/],
    [{ fonts: ['nope.bdf'] }, '/fonts/0', /not found in fonts\//],
    [{ fonts: ['bad.bdf'] }, '/fonts/0', /cannot be read as a BDF font/],
    [{ graphics: ['bus.jpg', 'x.txt'] }, '/graphics/1', /must be a \.png, \.jpg or \.gif file|not found/],
    [{ font: 'bad.bdf' }, '/font', /cannot be read as a BDF font: not a BDF 2\.1 font/],
    [{ scrollDirection: 'down' }, '/scrollDirection', /./],
  ];
  for (const [title, field, message] of cases) {
    const faults = faultsOf(title, (dir) => writeFileSync(path.join(dir, 'fonts', 'bad.bdf'), 'hello'));
    const f = faults.find((x) => x.path === AT + field);
    assert.ok(f, `${JSON.stringify(title)}: no fault at ${field} in ${JSON.stringify(faults)}`);
    assert.match(f.message, message);
  }
});

const signFaults = (sign: Record<string, unknown>) =>
  configFaults((c) => Object.assign(c.displays.main.layout.l1.sign, sign));

test('a static area with markup "multi" has its params checked at load', () => {
  const faults = signFaults({ markup: 'multi', params: { a: 'Alpha[nl]Beta', b: 'Beta[xx]' }, defaultValue: 'a' });
  assert.deepEqual(
    faults.map((f) => f.path),
    ['/displays/main/layout/l1/sign/params/b'],
  );
  assert.match(faults[0].message, /MULTI tag "\[xx\]" at character 5/);
});

test("a static MULTI params text whose line parts go back along the line is a fault, the area's align counting", () => {
  const faults = signFaults({
    markup: 'multi',
    align: 'center',
    params: { a: 'Gleis[jl4]2', b: 'Mitte[jl2]links' },
    defaultValue: 'a',
  });
  assert.deepEqual(
    faults.map((f) => f.path),
    ['/displays/main/layout/l1/sign/params/b'],
  );
  assert.match(faults[0].message, /MULTI tag "\[jl2\]" at character 6: a line's parts come left, centre, right/);
});

test('a configuration archive carries the fonts and graphics lists', async () => {
  const c: Cfg = baseConfig();
  Object.assign(c.displays.main.layout.l1.title, { markup: 'multi', fonts: ['6x10.bdf'], graphics: ['bus.png'] });
  const sd = serviceDir(c);
  try {
    const packed = await packConfiguration(sd.configFile);
    assert.deepEqual(packed.skipped, []);
    assert.ok(
      packed.files.includes('fonts/6x10.bdf') && packed.files.includes('images/bus.png'),
      packed.files.join(', '),
    );
  } finally {
    sd.cleanup();
  }
});
