import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { serviceDir, start, until } from '../helpers/service.js';
import { capAlert, capServer, doc } from './cap.js';
import { alertsConfig, alertsStatus, mainDisplay } from './setup.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

test(
  'a level without expires lasts 10 minutes and is renewed while the alert is in force; one beyond a day ' +
    'lasts a day; a level ends with its alert',
  async () => {
    const cap = await capServer();
    cap.routes.set('/cap.xml', doc(capAlert({ identifier: 'LONG-1', sent: iso(T0 - 3_600_000) })));
    const sd = serviceDir(alertsConfig(cap.url('/cap.xml')));
    const clock = new FakeClock(T0);
    const svc = await start(sd, { clock, recheckSeconds: 0 });
    const levelEnd = async () => (await mainDisplay(svc)).layers[0]?.expiresAt;
    const polled = (at: number) =>
      until(async () => (await alertsStatus(svc)).feeds[0].lastGoodAt === iso(at), 10_000, `the poll at ${iso(at)}`);
    /** Moves the clock once the next poll is due on it (a poll schedules the next when it ends). */
    const advance = async (ms: number) => {
      await until(
        async () => (await alertsStatus(svc)).feeds[0].nextFetchAt !== undefined,
        10_000,
        'the next poll scheduled',
      );
      clock.advance(ms);
    };
    try {
      await until(async () => (await levelEnd()) === iso(T0 + 600_000), 10_000, 'the level, 600 s');
      // The passing of (the service's) time is what is tested.
      await advance(200_000);
      await polled(T0 + 200_000);
      assert.equal(await levelEnd(), iso(T0 + 600_000), '400 s left: not renewed yet');
      await advance(150_000);
      await polled(T0 + 350_000);
      await until(async () => (await levelEnd()) === iso(T0 + 950_000), 10_000, 'the level renewed at 250 s left');

      cap.routes.set(
        '/cap.xml',
        doc(capAlert({ identifier: 'DAYS-1', sent: iso(T0), infos: [{ expires: iso(T0 + 3 * 86_400_000) }] })),
      );
      await advance(1000);
      await polled(T0 + 351_000);
      await until(async () => (await levelEnd()) === iso(T0 + 351_000 + 86_400_000), 10_000, 'a level of a day');
      assert.deepEqual(
        (await alertsStatus(svc)).displays.main.map((a: Record<string, unknown>) => a.identifier),
        ['DAYS-1'],
      );

      cap.routes.set('/cap.xml', (_req, res) => {
        res.writeHead(404).end();
      });
      await advance(1000);
      await until(async () => (await alertsStatus(svc)).feeds[0].fault !== undefined, 10_000, 'the failing poll');
      assert.equal((await mainDisplay(svc)).layers.length, 1, 'a failing feed keeps the alert');
      cap.routes.set(
        '/cap.xml',
        doc(
          '<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>OTHER</identifier><sender>x</sender>' +
            '<sent>2026-11-28T11:00:00Z</sent><status>Draft</status><msgType>Alert</msgType></alert>',
        ),
      );
      await advance(1000);
      await until(
        async () => (await mainDisplay(svc)).layers.length === 0,
        10_000,
        'the level cleared once the URL serves another alert',
      );
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);
