import assert from 'node:assert/strict';
import { test } from 'node:test';
import { get, serviceDir, start, until } from '../helpers/service.js';
import { capAlert, capServer, doc, square } from './cap.js';
import { alertsConfig, alertsStatus, isBlack, isRed, LAT, LON, mainDisplay } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test(
  'an alert whose polygon holds the unit shows at its priority with the template filled in, in /status, ' +
    '/history and on the panel',
  async () => {
    const cap = await capServer();
    const sd = serviceDir(alertsConfig(cap.url('/cap.xml'), { template: '{event}: {headline} until {expires}' }));
    const svc = await start(sd, { logDir: `${sd.dir}/log` });
    try {
      await until(() => (cap.hits.get('/cap.xml') ?? 0) >= 1, 10_000, 'the first fetch');
      assert.ok(await isBlack(svc), 'nothing shown while the URL answers 404');
      const appeared = Date.now();
      cap.routes.set(
        '/cap.xml',
        doc(
          capAlert({
            identifier: 'FLOOD-1',
            infos: [{ expires: '2099-01-02T03:04:00Z', areas: [{ polygon: square(LAT, LON) }] }],
          }),
        ),
      );
      await until(() => isRed(svc), 20_000, 'the alert area on the panel');
      console.log(`alert in the feed to its pixels on the panel: ${Date.now() - appeared} ms (interval 1 s)`);

      const d = await mainDisplay(svc);
      const top = d.layers[0];
      assert.deepEqual([top.priority, top.layout, top.source], [8, 'warn', 'cap']);
      assert.equal(
        d.areas.find((a: Obj) => a.id === 'msg').text,
        'Flood Warning: River over its banks until 2 Jan 03:04',
      );
      const st = await alertsStatus(svc);
      assert.deepEqual(
        st.displays.main.map((a: Obj) => [a.identifier, a.sender, a.event, a.expires, a.showing]),
        [['FLOOD-1', 'w-nws.webmaster@noaa.gov', 'Flood Warning', '2099-01-02T03:04:00.000Z', true]],
      );
      assert.equal(st.feeds[0].fault, undefined);
      const card =
        /<section class="card component" data-component="alerts">.*?<\/section>/s.exec(
          (await get(svc, '/info')).text,
        )?.[0] ?? '';
      assert.match(card, /Flood Warning <code>FLOOD-1<\/code> \(on show\)/);

      await until(
        async () => ((await get(svc, '/history?id=main')).json.entries as Obj[]).some((e) => e.source === 'cap'),
        10_000,
        'the alert in /history',
      );
      const h = ((await get(svc, '/history?id=main')).json.entries as Obj[]).find((e) => e.source === 'cap') as Obj;
      assert.equal(h.inumber, 'cap:FLOOD-1');
      assert.equal(h.priority, 8);
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);

test('a unit outside the polygon shows nothing, and /status says why', async () => {
  const cap = await capServer();
  cap.routes.set(
    '/cap.xml',
    doc(capAlert({ identifier: 'FAR-1', infos: [{ areas: [{ polygon: square(LAT + 1, LON) }] }] })),
  );
  const sd = serviceDir(alertsConfig(cap.url('/cap.xml')));
  const svc = await start(sd);
  try {
    await until(async () => (await alertsStatus(svc)).feeds[0].notShown.length === 1, 10_000, 'the alert judged');
    const st = await alertsStatus(svc);
    assert.deepEqual(st.feeds[0].notShown[0], {
      identifier: 'FAR-1',
      sender: 'w-nws.webmaster@noaa.gov',
      event: 'Flood Warning',
      reason: 'outside the area',
    });
    assert.deepEqual(st.displays, {});
    assert.equal((await mainDisplay(svc)).layers.length, 0);
    assert.ok(await isBlack(svc));
    assert.match((await get(svc, '/info')).text, /<code>FAR-1<\/code> outside the area/);
  } finally {
    await svc.close();
    await cap.close();
    sd.cleanup();
  }
});
