import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';
import { alertsBoard, boardConfig, feedMessage, feedServer, feedsRig, gtfsZip, sec } from './fixtures.js';
import { schedule, T0, tripUpdates } from './gtfs-sample.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const alert = (
  id: string,
  text: string,
  informed: Array<Record<string, unknown>>,
  periods: Array<[number, number?]> = [],
) => ({
  id,
  alert: {
    activePeriod: periods.map(([start, end]) => ({ start: sec(start), ...(end ? { end: sec(end) } : {}) })),
    informedEntity: informed,
    headerText: {
      translation: [
        { text, language: 'en' },
        { text: `${text} (de)`, language: 'de' },
      ],
    },
  },
});

test(
  "GTFS-realtime alerts for the board's stop and routes go to its display as a priority message for their " +
    'active period, renewed, and leave',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
    const srv = await feedServer();
    const clock = new FakeClock(T0);
    srv.bodies.set('/tu', tripUpdates(T0));
    srv.bodies.set(
      '/alerts',
      feedMessage(
        [
          alert('lift', 'Lift out of order', [{ stopId: 'S1' }], [[T0 - 60_000, T0 + 300_000]]),
          alert('line', 'Line 12 diverted', [{ routeId: 'R12' }], [[T0 - 60_000, T0 + 300_000]]),
          alert('other', 'Line 99 strike', [{ routeId: 'R99' }]),
          alert('later', 'Works tonight', [{ stopId: 'S1' }], [[T0 + 600_000]]),
        ],
        T0,
      ),
    );
    const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
    const rig = await feedsRig(alertsBoard(srv, 'vbb', ['S1'], { alertPriority: '6' }), clock, { 'gtfs.zip': zip });
    const shown =
      'id=stop1&layout=board&alert=Lift%20out%20of%20order%20%E2%80%A2%20Line%2012%20diverted&priority=6&expires=90';
    const clear = 'id=stop1&priority=6&layout=';
    try {
      await until(() => rig.applied.length === 1, 10_000, 'the alert shown');
      assert.deepEqual(
        rig.applied,
        [shown],
        'the alerts of its stop and of the routes calling there; not line 99; not the later one',
      );

      // Said again before its 90 s run out (every interval), while the alerts feed stays the same (304).
      clock.advance(30_000);
      await until(() => rig.applied.length === 2, 10_000, 'the renewal');
      assert.equal(rig.applied[1], shown);

      // The active period ends at T0 + 300 s: the level is cleared then, not a poll later.
      clock.advance(270_000);
      await until(() => rig.applied.includes(clear), 10_000, 'the clear at the end of the period');
      const count = rig.applied.length;
      assert.equal(rig.applied[count - 1], clear);
      assert.equal((rig.feeds.status().feeds.vbb as { alerts: { shownOn: number } }).alerts.shownOn, 0);

      // The later alert starts at T0 + 600 s (the timer wakes at its start), then leaves the feed.
      clock.advance(300_000);
      await until(() => rig.applied.some((q) => q.includes('Works%20tonight')), 10_000, 'the later alert');
      assert.match(
        rig.applied[rig.applied.length - 1],
        /^id=stop1&layout=board&alert=Works%20tonight&priority=6&expires=90$/,
      );
      // No poll in flight while the feed changes.
      await until(
        () => (rig.feeds.status().feeds.vbb as { alerts: { nextPollAt?: string } }).alerts.nextPollAt !== undefined,
        10_000,
        'the alerts poll done',
      );
      srv.bodies.set('/alerts', feedMessage([alert('other', 'Line 99 strike', [{ routeId: 'R99' }])], T0 + 600_000));
      const before = rig.applied.length;
      clock.advance(30_000);
      await until(
        () => rig.applied.length > before && rig.applied[rig.applied.length - 1] === clear,
        10_000,
        'the clear once it left the feed',
      );
    } finally {
      await rig.stop();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "feed alerts through a running service's control path: a level on /status with source feed, the alert " +
    "area's text, and gone when cleared",
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
    const srv = await feedServer();
    // The service's display and layout as the board's, with the alert area (the departures area is drawn by its own
    // module).
    const c = baseConfig();
    c.displays = {
      stop1: {
        displayWidth: '192',
        displayHeight: '32',
        output: { driver: 'virtual' },
        layout: {
          board: { alert: { type: 'text', coordinates: '0 24 191 31', fontSize: '8' } },
          plain: { other: { type: 'text', coordinates: '0 0 191 31' } },
        },
      },
    };
    const sd = serviceDir(c);
    const svc = await start(sd, { recheckSeconds: 0 });
    const clock = new FakeClock(Date.now());
    const t0 = clock.now();
    srv.bodies.set('/tu', feedMessage([], t0));
    srv.bodies.set(
      '/alerts',
      feedMessage([alert('lift', 'Lift out of order', [{ stopId: 'S1' }], [[t0 - 60_000, t0 + 3600_000]])], t0),
    );
    const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
    const rig = await feedsRig(alertsBoard(srv, 'vbb', ['S1']), clock, { 'gtfs.zip': zip }, (q) =>
      svc.controller().apply(q, 'feed'),
    );
    const display = async () => ((await get(svc, '/status')).json.displays as Obj[])[0];
    try {
      assert.equal((await get(svc, '/mlds?id=stop1&layout=plain&other=Hello')).status, 200);
      await until(async () => (await display()).layers?.length === 2, 10_000, 'the alert level');
      const d = await display();
      assert.deepEqual(
        d.layers.map((l: Obj) => [l.priority, l.layout, l.source]),
        [
          [5, 'board', 'feed'],
          [0, 'plain', 'http'],
        ],
      );
      assert.ok(Date.parse(d.layers[0].expiresAt) - Date.now() <= 90_000, 'expires within 3 intervals');
      assert.equal(d.areas.find((a: Obj) => a.id === 'alert').text, 'Lift out of order');

      srv.bodies.set('/alerts', feedMessage([], t0 + 30_000));
      clock.advance(30_000);
      await until(async () => (await display()).layers?.length === 1, 10_000, 'the level cleared');
      assert.equal((await display()).layers[0].layout, 'plain', 'what the TPCM sent shows again');
    } finally {
      await rig.stop();
      await svc.close();
      srv.close();
      sd.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "SIRI-SX situations for the board's stop or line are " + 'shown for their validity; closed ones and others are not',
  async () => {
    const srv = await feedServer();
    const clock = new FakeClock(T0);
    const iso = (ms: number) => new Date(ms).toISOString();
    const situation = (n: string, summary: string, affects: string, from: number, to: number, progress = 'open') => `
    <PtSituationElement><CreationTime>${iso(T0 - 3600_000)}</CreationTime><SituationNumber>${n}</SituationNumber><Progress>${progress}</Progress>
      <ValidityPeriod><StartTime>${iso(from)}</StartTime><EndTime>${iso(to)}</EndTime></ValidityPeriod>
      <Summary xml:lang="en">${summary}</Summary><Description>Longer text</Description><Affects>${affects}</Affects></PtSituationElement>`;
    const sx = (
      ...s: string[]
    ) => `<?xml version="1.0"?><Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery><ResponseTimestamp>${iso(T0)}</ResponseTimestamp>
    <SituationExchangeDelivery><Situations>${s.join('')}</Situations></SituationExchangeDelivery></ServiceDelivery></Siri>`;
    const stop = '<StopPoints><AffectedStopPoint><StopPointRef>HBF</StopPointRef></AffectedStopPoint></StopPoints>';
    const line = (l: string) =>
      `<Networks><AffectedNetwork><AffectedLine><LineRef>${l}</LineRef></AffectedLine></AffectedNetwork></Networks>`;
    srv.bodies.set(
      '/sm',
      `<Siri xmlns="http://www.siri.org.uk/siri"><ServiceDelivery><StopMonitoringDelivery><MonitoredStopVisit><MonitoringRef>HBF</MonitoringRef>
    <MonitoredVehicleJourney><LineRef>7</LineRef><MonitoredCall><AimedDepartureTime>${iso(T0 + 600_000)}</AimedDepartureTime></MonitoredCall></MonitoredVehicleJourney></MonitoredStopVisit></StopMonitoringDelivery></ServiceDelivery></Siri>`,
    );
    srv.bodies.set(
      '/sx',
      sx(
        situation('s1', 'Escalator &amp; lift closed', stop, T0 - 60_000, T0 + 120_000),
        situation('s2', 'Line 7 diverted', line('7'), T0 - 60_000, T0 + 120_000),
        situation('s3', 'Line 9 strike', line('9'), T0 - 60_000, T0 + 120_000),
        situation('s4', 'Over already', stop, T0 - 60_000, T0 + 120_000, 'closed'),
      ),
    );
    const rig = await feedsRig(
      boardConfig(
        { city: { type: 'siri', url: srv.url('/sm'), interval: '30', alertsUrl: srv.url('/sx') } },
        ['HBF'],
        {},
        { alertArea: 'alert' },
      ),
      clock,
    );
    try {
      await until(() => rig.applied.length >= 1, 10_000, 'the situation shown');
      assert.equal(
        rig.applied[0],
        'id=stop1&layout=board&alert=Escalator%20%26%20lift%20closed%20%E2%80%A2%20Line%207%20diverted' +
          '&priority=5&expires=90',
      );
      clock.advance(120_000);
      await until(
        () => rig.applied[rig.applied.length - 1] === 'id=stop1&priority=5&layout=',
        10_000,
        'the clear at EndTime',
      );
    } finally {
      await rig.stop();
      srv.close();
    }
  },
);
