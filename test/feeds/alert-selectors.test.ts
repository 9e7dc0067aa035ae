// GTFS-realtime alerts as an agency sends them: several informed_entity selectors per alert
// (agency, route type, stop, trip, route with direction), alerts for another agency and
// selectors that hold only in part, and an entity that cannot be read. The NYC schedule
// (nyct.ts), the feeds over real HTTP on loopback, a running service's control path.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';
import { alertsBoard, feedMessage, feedServer, feedsRig, gtfsZip } from './fixtures.js';
import { ld, nycSchedule } from './nyct.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const alert = (id: string, text: string, informed: Array<Record<string, unknown>>) => ({
  id,
  alert: { informedEntity: informed, headerText: { translation: [{ text, language: 'en' }] } },
});

/**
 * An MTA-shaped alerts feed: what reaches a board on Times Sq-42 St (127, platforms 127N and 127S), and what must not.
 */
function agencyAlerts(now: number): Buffer {
  const feed = feedMessage(
    [
      alert('a1', 'NYCT: service changes tonight', [{ agencyId: 'MTA NYCT' }]),
      alert('a2', 'Times Sq elevator out', [
        { agencyId: 'MTA NYCT', stopId: '127' },
        { agencyId: 'MTA NYCT', stopId: '725' },
      ]),
      alert('a3', 'Train 070200 held', [{ agencyId: 'MTA NYCT', trip: { tripId: '070200_1..S03R', routeId: '1' } }]),
      alert('a4', 'Downtown 1 skips 28 St', [
        { agencyId: 'MTA NYCT', routeId: '1', directionId: 1 },
        { agencyId: 'MTA NYCT', stopId: '137S' },
      ]),
      alert('a5', 'All subway lines delayed', [{ routeType: 1 }]),
      // None of these is for this board.
      alert('b1', 'Q70 LaGuardia Link detour', [{ agencyId: 'MTABC', routeId: 'Q70' }, { agencyId: 'MTABC' }]),
      alert('b2', 'Uptown 1 delays', [{ agencyId: 'MTA NYCT', routeId: '1', directionId: 0 }]),
      alert('b3', '7 line suspended', [
        { agencyId: 'MTA NYCT', routeId: '7' },
        { routeId: '7', stopId: '127' },
      ]),
      alert('b4', 'Van Cortlandt Park elevator out', [{ stopId: '101N' }]),
      alert('b5', 'Buses detoured', [{ routeType: 3 }]),
    ],
    now,
  );
  // An entity whose alert is cut short: left out and counted, the rest shown.
  return Buffer.concat([feed, ld(2, Buffer.concat([ld(1, 'broken-7'), Buffer.from([0x2a, 0x20, 0x01])]))]);
}

const SHOWN = [
  'NYCT: service changes tonight',
  'Times Sq elevator out',
  'Train 070200 held',
  'Downtown 1 skips 28 St',
  'All subway lines delayed',
].join(' \u2022 ');

test(
  'alerts reach a platform board by agency, route type, its station, a trip through it and route with ' +
    "direction; not another agency's",
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
    const srv = await feedServer();
    const c = baseConfig();
    c.displays = {
      stop1: {
        displayWidth: '192',
        displayHeight: '32',
        output: { driver: 'virtual' },
        layout: { board: { alert: { type: 'text', coordinates: '0 24 191 31', fontSize: '8' } } },
      },
    };
    const sd = serviceDir(c);
    const svc = await start(sd, { recheckSeconds: 0 });
    const clock = new FakeClock(Date.now());
    srv.bodies.set('/tu', feedMessage([], clock.now()));
    srv.bodies.set('/alerts', agencyAlerts(clock.now()));
    const zip = readFileSync(await gtfsZip(path.join(dir, 'nyc.zip'), nycSchedule()));
    const rig = await feedsRig(alertsBoard(srv, 'nyct', ['127S']), clock, { 'gtfs.zip': zip }, (q) =>
      svc.controller().apply(q, 'feed'),
    );
    const display = async () => ((await get(svc, '/status')).json.displays as Obj[])[0];
    try {
      await until(async () => (await display()).layers?.length === 1, 10_000, 'the alert level');
      assert.equal((await display()).areas.find((a: Obj) => a.id === 'alert').text, SHOWN);
      const alerts = (rig.feeds.status().feeds as Obj).nyct.alerts;
      assert.equal(alerts.active, 10);
      assert.equal(alerts.skippedEntities.count, 1);
      assert.equal(alerts.skippedEntities.named[0].id, 'broken-7');
    } finally {
      await rig.stop();
      await svc.close();
      srv.close();
      sd.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("an alert for a platform reaches its station's board", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
  const srv = await feedServer();
  const clock = new FakeClock(Date.now());
  srv.bodies.set('/tu', feedMessage([], clock.now()));
  srv.bodies.set(
    '/alerts',
    feedMessage(
      [
        alert('p1', 'Downtown platform closed', [{ agencyId: 'MTA NYCT', stopId: '127S' }]),
        alert('p2', '28 St platform closed', [{ stopId: '137S' }]),
      ],
      clock.now(),
    ),
  );
  const zip = readFileSync(await gtfsZip(path.join(dir, 'nyc.zip'), nycSchedule()));
  const rig = await feedsRig(alertsBoard(srv, 'nyct', ['127']), clock, { 'gtfs.zip': zip });
  try {
    await until(() => rig.applied.length === 1, 10_000, 'the alert shown');
    assert.deepEqual(rig.applied, ['id=stop1&layout=board&alert=Downtown%20platform%20closed&priority=5&expires=90']);
  } finally {
    await rig.stop();
    srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
