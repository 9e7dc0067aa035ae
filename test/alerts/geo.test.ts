import assert from 'node:assert/strict';
import { test } from 'node:test';
import { areaHolds, distanceKm, inPolygon } from '../../src/alerts/geo.js';
import { circleOf, polygonOf } from '../../src/alerts/cap-alert.js';
import { parseCapDocument } from '../../src/alerts/cap-xml.js';
import { capAlert, doc } from './cap.js';

test('great-circle distance: Warsaw to Kraków is about 252 km, a degree of latitude about 111 km', () => {
  assert.ok(Math.abs(distanceKm([52.2297, 21.0122], [50.0647, 19.945]) - 252) < 2);
  assert.ok(Math.abs(distanceKm([0, 0], [1, 0]) - 111.2) < 0.2);
  assert.ok(Math.abs(distanceKm([0, 179.9], [0, -179.9]) - 22.2) < 0.2, 'across the antimeridian');
});

test('point in polygon: a concave polygon, its notch and the outside', () => {
  // A "U": the notch between x 1..2 above y 1 is outside.
  const u = polygonOf('0,0 0,3 3,3 3,2 1,2 1,1 3,1 3,0 0,0').map(([a, b]) => [a, b] as [number, number]);
  assert.equal(inPolygon([0.5, 1.5], u), true);
  assert.equal(inPolygon([1.5, 1.5], u), false);
  assert.equal(inPolygon([2.5, 2.5], u), true);
  assert.equal(inPolygon([4, 1], u), false);
});

test('an area holds the unit by polygon, circle or geocode', () => {
  const area = {
    areaDesc: '',
    polygons: [],
    circles: [circleOf('52.0,21.0 25')],
    geocodes: [{ valueName: 'SAME', value: '006113' }],
  };
  assert.equal(areaHolds(area, [52.2, 21.0], []), true, '22 km from the centre');
  assert.equal(areaHolds(area, [52.3, 21.0], []), false, '33 km');
  assert.equal(areaHolds(area, undefined, [{ valueName: 'SAME', value: '006113' }]), true);
  assert.equal(
    areaHolds(area, undefined, [{ valueName: 'FIPS6', value: '006113' }]),
    false,
    'the code system must match too',
  );
});

test('malformed polygons and circles leave the alert out of a feed with a reason; well-formed ones are read', () => {
  assert.throws(() => polygonOf('1,1 2,2'), /at least 4/);
  assert.throws(() => polygonOf('1,1 2,2 3,x 1,1'), /at least 4/);
  assert.throws(() => circleOf('91,0 5'), /not "lat,lon radius"/);
  assert.throws(() => polygonOf(Array(10_001).fill('1,1').join(' ')), /more than 10000 points/);
  assert.equal(polygonOf(Array(10_000).fill('1,1').join('\n')).length, 10_000);
  const d = parseCapDocument(
    Buffer.from(
      doc(
        `<feed xmlns="http://www.w3.org/2005/Atom"><entry><content ` +
          `type="text/xml">${capAlert({ identifier: 'BAD', infos: [{ areas: [{ polygon: '1,1 2,2' }] }] })}</content></entry>` +
          `<entry><content type="text/xml">${capAlert({ identifier: 'OK' })}</content></entry></feed>`,
      ),
    ),
  );
  assert.deepEqual(
    d.alerts.map((a) => a.identifier),
    ['OK'],
  );
  assert.deepEqual(d.refused, ['entry 1 has a polygon that is not at least 4 "lat,lon" pairs']);
});

/** The Bering Sea, 170 E to 170 W, as a publisher draws it: each edge the short way. */
const BERING = '51,170 51,-170 63,-170 63,170 51,170';

test('a polygon across the antimeridian holds what lies between 170 E and 170 W, not the rest of the world', () => {
  const p = polygonOf(BERING);
  assert.equal(inPolygon([52.23, 21.01], p), false, 'Warsaw');
  assert.equal(inPolygon([58, 0], p), false, 'Greenwich at the same latitude');
  assert.equal(inPolygon([58, 179.5], p), true, 'east of the antimeridian');
  assert.equal(inPolygon([58, -179.5], p), true, 'west of it');
  assert.equal(inPolygon([58, 180], p), true, 'on it');
  assert.equal(inPolygon([58, -165], p), false, 'east of 170 W');
  assert.equal(inPolygon([58, 165], p), false, 'west of 170 E');
  assert.equal(inPolygon([64, 179.5], p), false, 'north of it');
  // Drawn the other way round, from 170 W eastwards.
  assert.equal(inPolygon([58, -179.5], polygonOf('63,-170 63,170 51,170 51,-170 63,-170')), true);
});
