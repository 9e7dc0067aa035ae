import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startCli } from '../helpers/cli-child.js';
import { serviceDir, until } from '../helpers/service.js';
import { capAlert, capServer, doc } from './cap.js';
import { alertsConfig, alertsStatus, isBlack, isRed, mainDisplay, status } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** alerts.json once written (the panel may show the alert a moment before it is saved). */
const saved = (stateDir: string): string => {
  const file = path.join(stateDir, 'alerts.json');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

test(
  'kill -9 with an alert in force: after the restart it shows again, and stays while the feed fails (the ' +
    'fault shown with its age)',
  async () => {
    const cap = await capServer();
    cap.routes.set('/cap.xml', doc(capAlert({ identifier: 'KEEP-1', infos: [{ expires: '2099-01-01T00:00:00Z' }] })));
    const sd = serviceDir(alertsConfig(cap.url('/cap.xml')));
    let svc = await startCli(sd);
    try {
      await until(() => isRed(svc), 20_000, 'the alert on the panel');
      await until(() => saved(sd.stateDir).includes('KEEP-1'), 10_000, 'alerts.json');
      await svc.kill();
      cap.routes.set('/cap.xml', (_req, res) => {
        res.writeHead(503).end();
      });
      svc = await startCli(sd);
      await until(() => isRed(svc), 20_000, 'the alert on the panel after the restart');
      await until(async () => (await alertsStatus(svc)).feeds[0].fault !== undefined, 20_000, 'the fault');
      const st = await alertsStatus(svc);
      assert.deepEqual(
        st.displays.main.map((a: Obj) => [a.identifier, a.showing]),
        [['KEEP-1', true]],
      );
      assert.match(st.feeds[0].fault.message, /HTTP 503/);
      assert.equal(typeof st.feeds[0].fault.ageSeconds, 'number');
      const problem = ((await status(svc)).problems as Obj[]).find((p) => p.source === 'alerts');
      assert.match(problem?.message ?? '', /fails \(for \d+ s\).*HTTP 503.*the alerts in force stay/);
      // The level is the one the state store restored, and it ends when alerts.json says it does.
      const top = (await mainDisplay(svc)).layers[0];
      assert.deepEqual([top.priority, top.layout, top.source], [8, 'warn', 'replay']);
      const held = JSON.parse(readFileSync(path.join(sd.stateDir, 'alerts.json'), 'utf8')).held['main|8'];
      assert.ok(
        Math.abs(Date.parse(top.expiresAt) - held.levelUntil) < 2000,
        `level ends ${top.expiresAt}, alerts.json says ${new Date(held.levelUntil).toISOString()}`,
      );
    } finally {
      await svc.kill();
      await cap.close();
      sd.cleanup();
    }
  },
);

test('kill -9 with an alert in force that expires while the service is down: it does not come back', async () => {
  const cap = await capServer();
  const expires = Date.now() + 8000;
  cap.routes.set(
    '/cap.xml',
    doc(
      capAlert({
        identifier: 'SHORT-1',
        infos: [{ expires: new Date(expires).toISOString().replace(/\.\d{3}Z$/, 'Z') }],
      }),
    ),
  );
  const sd = serviceDir(alertsConfig(cap.url('/cap.xml')));
  let svc = await startCli(sd);
  try {
    await until(() => isRed(svc), 20_000, 'the alert on the panel');
    await until(() => saved(sd.stateDir).includes('SHORT-1'), 10_000, 'alerts.json');
    await svc.kill();
    cap.routes.set('/cap.xml', (_req, res) => {
      res.writeHead(503).end();
    });
    // The passing of time is what is tested: the alert's expires passes while the service is down.
    await until(() => Date.now() > expires + 500, 20_000, 'the alert to expire');
    svc = await startCli(sd);
    await until(
      async () => (await alertsStatus(svc)).feeds[0].fault !== undefined,
      20_000,
      'the first (failing) fetch',
    );
    assert.deepEqual((await alertsStatus(svc)).displays, {});
    assert.equal((await mainDisplay(svc)).layers.length, 0);
    assert.ok(await isBlack(svc));
  } finally {
    await svc.kill();
    await cap.close();
    sd.cleanup();
  }
});
