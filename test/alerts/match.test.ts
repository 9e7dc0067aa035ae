import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serviceDir, start, until } from '../helpers/service.js';
import { atomFeed, atomLinks, capAlert, capServer, doc } from './cap.js';
import { alertsConfig, alertsStatus, isRed, LAT, LON, mainDisplay } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const reasons = (st: Obj) => Object.fromEntries(st.feeds[0].notShown.map((n: Obj) => [n.identifier, n.reason]));
const inForce = (st: Obj) => (st.displays.main ?? []).map((a: Obj) => a.identifier).sort();

test(
  'an Atom feed: circle, geocode and no area concern the unit; a far circle, another geocode, Test status and ' +
    'a past expires do not; the info in the first listed language shows',
  async () => {
    const cap = await capServer();
    cap.routes.set(
      '/feed.atom',
      atomFeed([
        // About 5.6 km north of the unit, radius 10 km.
        capAlert({
          identifier: 'CIRCLE-IN',
          sent: '2026-11-28T10:00:01Z',
          infos: [{ areas: [{ circle: `${LAT + 0.05},${LON} 10` }] }],
        }),
        capAlert({ identifier: 'CIRCLE-OUT', infos: [{ areas: [{ circle: `${LAT + 0.5},${LON} 10` }] }] }),
        capAlert({
          identifier: 'GEO-IN',
          sent: '2026-11-28T10:00:02Z',
          infos: [{ areas: [{ geocode: ['EMMA_ID', 'PL101'] }] }],
        }),
        capAlert({ identifier: 'GEO-OUT', infos: [{ areas: [{ geocode: ['EMMA_ID', 'PL999'] }] }] }),
        capAlert({ identifier: 'NO-AREA', sent: '2026-11-28T10:00:03Z', infos: [{ severity: 'Moderate' }] }),
        capAlert({ identifier: 'TEST-1', status: 'Test' }),
        capAlert({ identifier: 'DRAFT-1', status: 'Draft' }),
        capAlert({ identifier: 'OLD-1', infos: [{ expires: '2020-01-01T00:00:00Z' }] }),
        capAlert({
          identifier: 'TWO-LANG',
          sent: '2026-11-28T09:00:00Z',
          infos: [
            { language: 'en-US', event: 'Storm', headline: 'Strong wind', severity: 'Extreme' },
            { language: 'pl-PL', event: 'Burza', headline: 'Silny wiatr', severity: 'Extreme' },
          ],
        }),
      ]),
    );
    const c = alertsConfig(cap.url('/feed.atom'), { languages: ['de', 'pl'] });
    c.geocodes = [{ valueName: 'EMMA_ID', value: 'PL101' }];
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      await until(() => isRed(svc), 20_000, 'an alert on the panel');
      const st = await alertsStatus(svc);
      assert.deepEqual(inForce(st), ['CIRCLE-IN', 'GEO-IN', 'NO-AREA', 'TWO-LANG']);
      assert.deepEqual(reasons(st), {
        'CIRCLE-OUT': 'outside the area',
        'GEO-OUT': 'outside the area',
        'TEST-1': 'not Actual',
        'DRAFT-1': 'not Actual',
        'OLD-1': 'expired',
      });
      // The most severe alert in force shows, in Polish (German is listed first but absent).
      assert.deepEqual(
        st.displays.main.filter((a: Obj) => a.showing).map((a: Obj) => a.identifier),
        ['TWO-LANG'],
      );
      assert.equal((await mainDisplay(svc)).areas.find((a: Obj) => a.id === 'msg').text, 'Burza: Silny wiatr');
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);

test('with test: true an alert of status Test shows; an Atom feed linking three alerts fetches each', async () => {
  const cap = await capServer();
  for (const n of [1, 2, 3])
    cap.routes.set(
      `/a${n}.xml`,
      doc(
        capAlert({ identifier: `LINKED-${n}`, sent: `2026-11-28T10:00:0${n}Z`, status: n === 3 ? 'Test' : 'Actual' }),
      ),
    );
  cap.routes.set('/feed.atom', atomLinks(['/a1.xml', cap.url('/a2.xml'), 'a3.xml']));
  const sd = serviceDir(alertsConfig(cap.url('/feed.atom'), { test: 'true' }));
  const svc = await start(sd);
  try {
    await until(async () => inForce(await alertsStatus(svc)).length === 3, 20_000, 'three linked alerts in force');
    const st = await alertsStatus(svc);
    assert.deepEqual(inForce(st), ['LINKED-1', 'LINKED-2', 'LINKED-3']);
    assert.deepEqual(
      st.displays.main.filter((a: Obj) => a.showing).map((a: Obj) => a.identifier),
      ['LINKED-3'],
      'the newest of equal severity',
    );
    const fetchesOfA1 = cap.hits.get('/a1.xml');
    await until(() => (cap.hits.get('/feed.atom') ?? 0) >= 3, 20_000, 'two more polls');
    assert.equal(cap.hits.get('/a1.xml'), fetchesOfA1, 'a linked alert is fetched once while the feed lists it');
  } finally {
    await svc.close();
    await cap.close();
    sd.cleanup();
  }
});

const SEA = { desc: 'Bering Sea', polygon: '51,170 51,-170 63,-170 63,170 51,170' };
const BERING = doc(capAlert({ identifier: 'BERING-1', infos: [{ event: 'Gale Warning', areas: [SEA] }] }));

/** A unit at lat, lon reading the Bering Sea alert: its alerts status once judged, and what the panel shows. */
async function bering(lat: string, lon: string): Promise<{ st: Obj; red: boolean; layers: number }> {
  const cap = await capServer();
  cap.routes.set('/bering.xml', BERING);
  const c = alertsConfig(cap.url('/bering.xml'));
  c.latitude = lat;
  c.longitude = lon;
  const sd = serviceDir(c);
  const svc = await start(sd);
  try {
    const judged = async () => {
      const st = await alertsStatus(svc);
      return inForce(st).length + st.feeds[0].notShown.length === 1;
    };
    await until(judged, 20_000, 'the alert judged');
    const st = await alertsStatus(svc);
    if (inForce(st).length) await until(() => isRed(svc), 20_000, 'the alert on the panel');
    return { st, red: await isRed(svc), layers: (await mainDisplay(svc)).layers.length };
  } finally {
    await svc.close();
    await cap.close();
    sd.cleanup();
  }
}

test(
  'a Bering Sea polygon (170 E to 170 W) does not concern a unit ' + 'in Warsaw: nothing shown, /status says why',
  async () => {
    const { st, red, layers } = await bering(String(LAT), String(LON));
    assert.deepEqual(reasons(st), { 'BERING-1': 'outside the area' });
    assert.deepEqual([red, layers], [false, 0]);
  },
);

test('a Bering Sea polygon (170 E to 170 W) concerns a unit at 58 N 179.5 W: the alert shows', async () => {
  const { st, red } = await bering('58', '-179.5');
  assert.deepEqual(inForce(st), ['BERING-1']);
  assert.equal(red, true);
});
