// The service as systemd runs it (Type=notify, WatchdogSec=2), with a real notify socket in
// place of systemd's: the CLI in a child process with NOTIFY_SOCKET, WATCHDOG_USEC and the
// test hook. Everything is checked by the order of datagrams and HTTP answers, never by time.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { emulated } from '../helpers/emulation.js';
import { baseConfig, get, REPO, serviceDir, start, until, cliStart } from '../helpers/service.js';
import { listen, type Datagram } from './listener.js';
import { skipReason } from '../helpers/skip.js';

const noHelper = skipReason(nativeHelperProblem());
const isStatus = (re: RegExp) => (d: Datagram) =>
  d.message.split('\n').some((l) => l.startsWith('STATUS=') && re.test(l.slice(7)));

function config(extra: Record<string, unknown> = {}) {
  const c = baseConfig();
  // Long enough to still be on at READY=1: an emulated start takes longer than 2 s to answer HTTP.
  c.displays.main.infoScreenTtl = emulated ? '15' : '2';
  return { ...c, ...extra };
}

test(
  'under a notify socket: starting, READY=1 once HTTP answers, boot screens, ready, faults, a stalled loop ' +
    'withholds the watchdog, STOPPING=1',
  { skip: noHelper, timeout: 90_000 },
  async () => {
    const sd = serviceDir(config());
    const dir = mkdtempSync(join(tmpdir(), 'mlds-sd-'));
    const l = await listen(join(dir, 'notify'));
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, cliStart(sd, '--state-dir', sd.stateDir), {
        cwd: REPO,
        env: { ...process.env, NOTIFY_SOCKET: l.address, WATCHDOG_USEC: '2000000', MLDS_TEST_HOOKS: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const exited = new Promise<number | null>((r) => child!.on('exit', (code) => r(code)));
      const pid = child.pid!;

      const starting = await l.next(() => true);
      assert.match(starting.message, /^STATUS=starting: 1 unit\(s\) blanked, waiting for HTTP on port (\d+)$/);
      const port = Number(/port (\d+)/.exec(starting.message)![1]);
      const svc = { url: `http://127.0.0.1:${port}` };

      const ready = await l.next((d) => d.message.startsWith('READY=1'));
      // The first request after READY=1 is served, not refused as "starting".
      assert.equal((await get(svc, '/status')).status, 200);
      assert.match(
        ready.message,
        /^READY=1\nSTATUS=boot screens: info screen on unit \S+ until \d\d:\d\d:\d\dZ; HTTP on port \d+$/,
      );
      await l.next(isStatus(/^ready: 1 display\(s\) on 1 unit\(s\), HTTP on port \d+$/));
      await l.next((d) => d.message === 'WATCHDOG=1');
      const fed = l.got.length;
      await l.next((d) => d.message === 'WATCHDOG=1', 30_000, fed);
      assert.ok(
        l.got.every((d) => d.pid === pid),
        'every message comes from the main process (NotifyAccess=main): ' +
          JSON.stringify(l.got.filter((d) => d.pid !== pid)),
      );

      const status = (await get(svc, '/status')).json as { components: Record<string, Record<string, unknown>> };
      assert.equal(status.components.systemd.phase, 'running');
      assert.equal(status.components.systemd.watchdogSeconds, 2);
      const card =
        /<section class="card component" data-component="systemd">.*?<\/section>/s.exec(
          (await get(svc, '/info')).text,
        )?.[0] ?? '';
      assert.match(
        card,
        /<th>Status<\/th><td>ready: 1 display\(s\) on 1 unit\(s\), HTTP on port \d+<\/td>/,
        '/info shows the STATUS line',
      );
      assert.match(card, /<th>Watchdog<\/th><td>every 1 s: \d+ sent, 0 withheld<\/td>/);

      // A faulty configuration loaded by SIGHUP (ExecReload): the last good one runs, STATUS says so.
      writeFileSync(sd.configFile, JSON.stringify(config({ bogus: 1 })));
      child.kill('SIGHUP');
      await l.next(
        isStatus(
          /^ready: .* \| configuration faults: 1 in the last load of .*config\.json, the last good configuration runs \(\/bogus: .*\)$/,
        ),
      );

      // The test hook stops every frame loop, as a hung one would stop: WATCHDOG=1 is withheld.
      child.kill('SIGUSR2');
      const withheld = await l.next(isStatus(/\| watchdog withheld: frame loop of unit \S+: stopped/));
      const after = l.got.indexOf(withheld);
      await until(
        async () => {
          const s = (await get(svc, '/status')).json as { components: { systemd: { watchdogWithheld: number } } };
          return s.components.systemd.watchdogWithheld >= 3;
        },
        30_000,
        'three watchdog checks that withheld',
      );
      assert.deepEqual(
        l.got.slice(after).filter((d) => d.message === 'WATCHDOG=1'),
        [],
        'no WATCHDOG=1 once a frame loop stopped',
      );
      assert.equal((await get(svc, '/status')).status, 200, 'HTTP still answers: only the watchdog knows');
      assert.match(
        (await get(svc, '/info')).text,
        /<th>Watchdog withheld<\/th><td class="bad"><div>frame loop of unit \S+: stopped<\/div>/,
      );

      child.kill('SIGTERM');
      await l.next((d) => d.message === 'STOPPING=1\nSTATUS=stopping', 30_000, after);
      assert.equal(await exited, 0);
    } finally {
      child?.kill('SIGKILL');
      await l.close();
      sd.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('without NOTIFY_SOCKET or WATCHDOG_USEC the component is not loaded at all', async () => {
  assert.ok(!process.env.NOTIFY_SOCKET && !process.env.WATCHDOG_USEC, 'this test runs outside systemd');
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    const s = (await get(svc, '/status')).json as { components: Record<string, unknown> };
    assert.equal(s.components.systemd, undefined);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
