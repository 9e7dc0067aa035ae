// SIRI-SX situations reach the boards they affect, not only by line: the whole network
// (AllLines), one journey (on the boards it departs from), a line by its LineRef (the board shows
// its PublishedLineName), a stop. Entur-shaped documents served on loopback (siri-shapes.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyScope, selects } from '../../src/feeds/alert-scope.js';
import { parseSiriSx } from '../../src/feeds/siri-alerts.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { feedServer, feedsRig } from './fixtures.js';
import { enturEt, enturSx } from './siri-shapes.js';

const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);

function display(stop: string, port: number): Record<string, unknown> {
  return {
    displayWidth: 192,
    displayHeight: 32,
    output: { driver: 'virtual' },
    displayIp: '127.0.0.1',
    displayPort: String(port),
    layout: {
      board: {
        deps: {
          type: 'departures',
          coordinates: '0 0 191 23',
          feed: 'entur',
          stops: [stop],
          rows: '3',
          columns: [{ field: 'destination', width: '192' }],
          alertArea: 'alert',
        },
        alert: { type: 'text', coordinates: '0 24 191 31', fontSize: '8' },
      },
    },
  };
}

test('SIRI-SX: situations for the network, a journey, a line and a stop reach the boards they affect', async () => {
  const srv = await feedServer();
  srv.bodies.set('/et', enturEt(T0));
  srv.bodies.set('/sx', enturSx(T0));
  const rig = await feedsRig(
    {
      displays: {
        nth: display('NSR:Quay:NTH-2', 7001),
        oslos: display('NSR:Quay:OSLOS-9', 7002),
        other: display('NSR:Quay:ELSEWHERE', 7003),
      },
      feeds: { entur: { type: 'siri', url: srv.url('/et'), alertsUrl: srv.url('/sx'), interval: '30' } },
    },
    new FakeClock(T0),
  ).catch((err: unknown) => {
    srv.close();
    throw err;
  });
  /** What each display's alert area was last told. */
  const shown = () => {
    const out: Record<string, string[]> = {};
    for (const m of rig.applied) {
      const p = new URLSearchParams(m);
      if (p.has('alert'))
        out[p.get('id')!] = p
          .get('alert')!
          .split(' \u2022 ')
          .map((t) => t.split(':')[0].split(' ').slice(0, 2).join(' '));
    }
    return out;
  };
  try {
    // Whichever poll answers first, the journey's situation follows the realtime data.
    await until(
      () => Object.keys(shown()).length === 3 && !!shown().nth?.includes('Train 2121'),
      10_000,
      'the alerts on each display',
    );
    assert.deepEqual(shown(), {
      // L1's journey 2121 and line R10 depart here; 2121 only arrives at Oslo S; journey 999 runs nowhere here.
      nth: ['Signal fault', 'Train 2121', 'R10 replaced'],
      oslos: ['Signal fault', 'R10 replaced', 'Lift out'],
      other: ['Signal fault'],
    });
  } finally {
    await rig.stop();
    srv.close();
  }
});

test('SIRI-SX: what a situation affects is read as the selectors GTFS-realtime alerts have', () => {
  const { alerts, skipped } = parseSiriSx(Buffer.from(enturSx(T0)));
  assert.equal(skipped, 0);
  assert.deepEqual(Object.fromEntries(alerts.map((a) => [a.id.split(':').pop(), a.selectors])), {
    1: [{ network: true }],
    // The quay named inside journey 2121 narrows it: it is no selector of its own.
    2: [{ tripId: 'VYG:ServiceJourney:2121' }],
    3: [{ routeId: 'VYG:Line:R10' }],
    4: [{ stopId: 'NSR:Quay:OSLOS-9' }],
    5: [{ tripId: 'VYG:ServiceJourney:999' }],
  });
  const board = { ...emptyScope(), stops: new Set(['NSR:Quay:ELSEWHERE']) };
  assert.deepEqual(
    alerts.filter((a) => a.selectors.some((s) => selects(s, board))).map((a) => a.id.split(':').pop()),
    ['1'],
  );
});
