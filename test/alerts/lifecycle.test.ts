import assert from 'node:assert/strict';
import { test } from 'node:test';
import { get, serviceDir, start, until } from '../helpers/service.js';
import { atomFeed, capAlert, capServer, SENDER } from './cap.js';
import { alertsConfig, alertsStatus, isBlack, isRed, mainDisplay } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const T1 = '2026-11-28T10:00:00Z';
const T2 = '2026-11-28T10:30:00Z';
const T3 = '2026-11-28T11:00:00Z';
const reasonOf = async (svc: { url: string }, id: string) =>
  ((await alertsStatus(svc)).feeds[0].notShown as Obj[]).find((n) => n.identifier === id)?.reason;
const shownText = async (svc: { url: string }) =>
  (await mainDisplay(svc)).areas?.find((a: Obj) => a.id === 'msg')?.text;

test(
  'a duplicate shows once, an Update replaces what it references, a Cancel removes it, and an alert that ' +
    'leaves the Atom feed leaves the panel',
  async () => {
    const cap = await capServer();
    const first = capAlert({ identifier: 'A', sent: T1, infos: [{ headline: 'first' }] });
    const update = capAlert({
      identifier: 'A2',
      sent: T2,
      msgType: 'Update',
      references: `${SENDER},A,${T1}`,
      infos: [{ headline: 'updated' }],
    });
    const cancel = capAlert({ identifier: 'A3', sent: T3, msgType: 'Cancel', references: `${SENDER},A2,${T2}` });
    cap.routes.set('/feed.atom', atomFeed([first, first]));
    const sd = serviceDir(alertsConfig(cap.url('/feed.atom')));
    const svc = await start(sd, { logDir: `${sd.dir}/log` });
    try {
      await until(async () => (await shownText(svc)) === 'Flood Warning: first', 20_000, 'the first alert');
      assert.equal((await alertsStatus(svc)).displays.main.length, 1);
      assert.equal(await reasonOf(svc, 'A'), 'duplicate');

      cap.routes.set('/feed.atom', atomFeed([first, update]));
      await until(async () => (await shownText(svc)) === 'Flood Warning: updated', 20_000, 'the update');
      assert.equal(await reasonOf(svc, 'A'), 'superseded');
      assert.deepEqual(
        (await alertsStatus(svc)).displays.main.map((a: Obj) => a.identifier),
        ['A2'],
      );

      cap.routes.set('/feed.atom', atomFeed([update, cancel]));
      await until(async () => (await mainDisplay(svc)).layers.length === 0, 20_000, 'the level cleared');
      assert.ok(await isBlack(svc), 'the panel is back to what it showed before');
      assert.equal(await reasonOf(svc, 'A2'), 'cancelled');
      assert.equal(await reasonOf(svc, 'A3'), 'a cancellation');

      // The cancellation leaves the feed; the alert it cancelled stays cancelled.
      cap.routes.set('/feed.atom', atomFeed([update]));
      const polls = cap.hits.get('/feed.atom')!;
      await until(() => cap.hits.get('/feed.atom')! >= polls + 2, 20_000, 'two polls');
      assert.equal(await reasonOf(svc, 'A2'), 'cancelled');
      assert.equal((await mainDisplay(svc)).layers.length, 0);

      cap.routes.set(
        '/feed.atom',
        atomFeed([update, capAlert({ identifier: 'B', sent: T3, infos: [{ headline: 'second' }] })]),
      );
      await until(() => isRed(svc), 20_000, 'B on the panel');
      cap.routes.set('/feed.atom', atomFeed([]));
      await until(() => isBlack(svc), 20_000, 'B gone once it left the feed');
      assert.deepEqual((await alertsStatus(svc)).displays, {});

      await until(
        async () =>
          ((await get(svc, '/history?id=main')).json.entries as Obj[]).filter((e) => e.source === 'cap').length >= 3,
        10_000,
        'the history',
      );
      const inumbers = ((await get(svc, '/history?id=main')).json.entries as Obj[])
        .filter((e) => e.source === 'cap' && e.value)
        .map((e) => e.inumber);
      assert.deepEqual([...new Set(inumbers)].sort(), ['cap:A', 'cap:A2', 'cap:B']);
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);
