// `mlds test`'s legibility warnings: a display that states its pitch and viewing distance has
// its capital heights, contrasts and departure boards checked; each warning names the area and
// its figures, and the exit code stays 0.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contrast, minCapHeightMm } from '../src/preview/legibility.js';
import { baseConfig, mldsTest as runMldsTest, serviceDir } from './helpers/service.js';

function mldsTest(config: unknown): { status: number | null; stderr: string } {
  const sd = serviceDir(config);
  try {
    const r = runMldsTest(sd);
    return { status: r.status, stderr: r.stderr };
  } finally {
    sd.cleanup();
  }
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('mlds: warning: '));

/** The base configuration's display, stated as a 4 mm sign read from 5 m, with its texts made legible there. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function legible(): Record<string, any> {
  const c = baseConfig();
  Object.assign(c.displays.main, { pitchMm: '4', viewingDistanceM: '5', displayHeight: '200' });
  c.displays.main.layout.l1 = {
    title: {
      coordinates: '0 0 199 99',
      type: 'text',
      fontSize: '40',
      fontColor: '255 255 255',
      backgroundColor: '0 0 0',
    },
  };
  c.displays.main.layout.l2 = {
    other: { coordinates: '0 0 199 199', type: 'text', fontSize: '80', fontColor: '255 200 0' },
  };
  return c;
}

test('the tables: 4 in under 20 ft for a changeable sign, 3 in under 21 ft for a static one, then per foot', () => {
  const near = minCapHeightMm(5);
  assert.ok(Math.abs(near.vms - 101.6) < 1e-6 && Math.abs(near.ada - 76.2) < 1e-6, JSON.stringify(near));
  const at = minCapHeightMm(30 * 0.3048);
  assert.ok(Math.abs(at.vms - (101.6 + 10 * 5.08)) < 1e-6);
  assert.ok(Math.abs(at.ada - (76.2 + 9 * 3.175)) < 1e-6);
  assert.equal(Math.round(contrast({ r: 255, g: 255, b: 255 }, { r: 0, g: 0, b: 255 }) * 100), 93);
  assert.equal(contrast({ r: 0, g: 0, b: 0 }, { r: 0, g: 0, b: 0 }), 0);
});

test('mlds test: a legible display draws no legibility warning', () => {
  const r = mldsTest(legible());
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(warnings(r.stderr), []);
});

test('mlds test: capital height under what the viewing distance needs is named with its figures, exit 0', () => {
  const c = legible();
  c.displays.main.viewingDistanceM = '12';
  const r = mldsTest(c);
  assert.equal(r.status, 0, r.stderr);
  // DejaVu Sans at 40 px: capital height 30 px, x 4 mm = 120 mm; 12 m needs 101.6 + 5.08 x (12000 - 6096) / 304.8 mm.
  // The other layout's 80 px (58 px, 232 mm) is enough.
  assert.deepEqual(warnings(r.stderr), [
    'mlds: warning: /displays/main/layout/l1/title: capital height 30 px x 4 mm = 120.0 mm at fontSize 40 ' +
      'is under the 200 mm a viewing distance of 12 m needs (changeable message sign; ADA 703.5.5 asks 135 mm of ' +
      'a static sign)',
  ]);
});

test('mlds test: text and background under 70 % contrast are named with their colours', () => {
  const c = legible();
  c.displays.main.layout.l1.title.backgroundColor = '255 255 255';
  c.displays.main.layout.l1.title.fontColor = '255 255 0';
  const r = mldsTest(c);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(warnings(r.stderr), [
    'mlds: warning: /displays/main/layout/l1/title: ' +
      'contrast of text 255 255 0 on background 255 255 255 is 7 %, under 70 %',
  ]);
});

test('mlds test: departures that scroll continuously are named', () => {
  const c = legible();
  c.feeds = { city: { type: 'gtfs-rt', url: 'http://127.0.0.1/rt' } };
  c.displays.main.layout.l2.other = {
    coordinates: '0 0 199 199',
    type: 'departures',
    fontSize: '80',
    feed: 'city',
    stops: ['S1'],
    overflow: 'scroll-up',
    columns: [{ width: 200, field: 'destination' }],
  };
  const r = mldsTest(c);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(warnings(r.stderr), [
    'mlds: warning: /displays/main/layout/l2/other: departures scroll continuously (overflow "scroll-up"): ' +
      'a row that moves is hard to read; use overflow "pages"',
  ]);
});
