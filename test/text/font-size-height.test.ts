import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { configFaults } from '../helpers/config-faults.js';
import { pixelFont } from './pixel-font.js';
import { sign, type Sign } from './sign-service.js';

const AT = '/displays/main/layout/l1/title';
const withFont = (dir: string) => writeFileSync(path.join(dir, 'fonts', 'unifont16.bdf'), pixelFont());

test('fontSize equal to the area height is allowed, as leaving it out is; larger is a fault', () => {
  // The test configuration's title area, its fontSize replaced (or left out).
  const faults = (title: Record<string, unknown>) =>
    configFaults((c) => {
      delete c.displays.main.layout.l1.title.fontSize;
      Object.assign(c.displays.main.layout.l1.title, title);
    }, withFont);
  // A 16 px pixel font in a 16-row area, with its size stated and without.
  assert.deepEqual(faults({ coordinates: '0 0 199 15', font: 'unifont16.bdf', fontSize: '16' }), []);
  assert.deepEqual(faults({ coordinates: '0 0 199 15', font: 'unifont16.bdf' }), []);
  assert.deepEqual(faults({ coordinates: '0 0 199 15', fontSize: '16' }), []);
  assert.deepEqual(faults({ coordinates: '0 0 199 15', fontSize: '17' }), [
    { path: `${AT}/fontSize`, message: '17 must not be larger than the area height (16 px)' },
  ]);
  assert.deepEqual(
    faults({ coordinates: '0 0 199 15', font: 'unifont16.bdf', fontSize: '32' }).map((f) => f.path),
    [`${AT}/fontSize`],
  );
  // The sizes a bitmap font suggests include the area's own height.
  const odd = faults({ coordinates: '0 0 199 31', font: 'unifont16.bdf', fontSize: '20' });
  assert.match(
    odd.find((f) => f.path === `${AT}/fontSize`)?.message ?? '',
    /use its pixel size or a whole multiple \(16, 32\)$/,
  );
});

let s: Sign;
before(async () => {
  s = await sign(
    {
      tt: { coordinates: '0 0 191 15', type: 'text', fontSize: '10', fontColor: '255 170 0' },
      px: { coordinates: '0 16 191 28', type: 'text', font: '7x13.bdf', fontSize: '13', fontColor: '255 170 0' },
    },
    192,
    32,
  );
});
after(async () => {
  await s?.close();
});

test('fontSize[area] equal to the area height is taken, larger is refused naming the override', async () => {
  assert.equal((await s.show('tt=I&fontSize[tt]=16&px=I&fontSize[px]=13')).status, 200);
  // 7x13's I, drawn in the 13 rows of its area: 9 rows of ink.
  const p = await s.shot();
  const rows = new Set<number>();
  for (let y = 16; y < 29; y++) for (let x = 0; x < 192; x++) if (p.at(x, y)[0] > 128) rows.add(y);
  assert.equal(rows.size, 9, `rows with ink: ${[...rows].join(',')}`);
  const r = await s.show('tt=I&fontSize[tt]=17');
  assert.equal(r.status, 400);
  assert.deepEqual(
    { code: r.json.code, message: r.json.message },
    { code: 'MLDS_BAD_OVERRIDE', message: '"fontSize[tt]": 17 must not be larger than the area height (16 px)' },
  );
  assert.equal((await s.show('px=I&fontSize[px]=26')).status, 400);
});
