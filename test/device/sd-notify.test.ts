// sd_notify through the native helper, received by a real Unix datagram socket (path and
// abstract), the errors a missing socket gives, the environment as systemd sets it, and a
// helper that is missing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nativeSdNotify, notifyEnv, socketNotifier, statusLine } from '../../src/device/sd-notify.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { REPO } from '../helpers/service.js';
import { listen } from './listener.js';
import { skipReason } from '../helpers/skip.js';

const noHelper = skipReason(nativeHelperProblem());
const sd = nativeSdNotify();

test('a path socket receives each message whole, sent from this process', { skip: noHelper }, async () => {
  assert.equal(typeof sd, 'function', String(sd));
  const dir = mkdtempSync(join(tmpdir(), 'mlds-notify-'));
  const l = await listen(join(dir, 'notify'));
  try {
    const send = sd as (a: string, m: string) => void;
    send(l.address, 'READY=1\nSTATUS=ready: 1 display(s)');
    send(l.address, 'WATCHDOG=1');
    const first = await l.next(() => true);
    assert.deepEqual([first.message, first.pid], ['READY=1\nSTATUS=ready: 1 display(s)', process.pid]);
    assert.equal((await l.next((d) => d.message === 'WATCHDOG=1')).pid, process.pid);
  } finally {
    await l.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an abstract socket (@name) receives too', { skip: noHelper }, async () => {
  const l = await listen(`@mlds-test-${process.pid}-${Date.now()}`);
  try {
    (sd as (a: string, m: string) => void)(l.address, 'STATUS=abstract ok');
    assert.equal((await l.next(() => true)).message, 'STATUS=abstract ok');
  } finally {
    await l.close();
  }
});

test(
  'a socket that is not there, nobody listening, a bad address: errors with their errno name',
  { skip: noHelper },
  async () => {
    const send = sd as (a: string, m: string) => void;
    assert.throws(() => send('/nonexistent/notify', 'READY=1'), { code: 'ENOENT', syscall: 'sendto' });
    const dir = mkdtempSync(join(tmpdir(), 'mlds-notify-'));
    try {
      const l = await listen(join(dir, 'gone'));
      await l.close();
      // The socket file stays after its listener died: systemd gone, notify socket left behind.
      assert.throws(() => send(join(dir, 'gone'), 'READY=1'), { code: 'ECONNREFUSED' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.throws(() => send('relative/notify', 'READY=1'), { code: 'EINVAL' });
    assert.throws(() => send('/' + 'x'.repeat(120), 'READY=1'), { code: 'EINVAL' });
    assert.throws(() => send('@', 'READY=1'), { code: 'EINVAL' });
    // The Notifier never throws: it says why.
    assert.match(socketNotifier('/nonexistent/notify', send).send('READY=1')!, /^ENOENT/);
  },
);

test('the environment as systemd sets it; WATCHDOG_PID of another process means no watchdog here', () => {
  assert.deepEqual(notifyEnv({ NOTIFY_SOCKET: '/run/systemd/notify', WATCHDOG_USEC: '30000000' }, 7), {
    socket: '/run/systemd/notify',
    watchdogMs: 30_000,
  });
  assert.deepEqual(notifyEnv({ NOTIFY_SOCKET: '@sd', WATCHDOG_USEC: '4000000', WATCHDOG_PID: '7' }, 7), {
    socket: '@sd',
    watchdogMs: 4000,
  });
  assert.deepEqual(notifyEnv({ NOTIFY_SOCKET: '@sd', WATCHDOG_USEC: '4000000', WATCHDOG_PID: '8' }, 7), {
    socket: '@sd',
  });
  assert.deepEqual(notifyEnv({ WATCHDOG_USEC: 'soon' }, 7), {});
  assert.deepEqual(notifyEnv({}, 7), {});
  assert.equal(statusLine('two\nlines\r\nhere'), 'STATUS=two lines here');
});

test('without the helper: the reason, never a throw', () => {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      "import('./src/device/sd-notify.ts').then((m) => process.stdout.write(String(m.nativeSdNotify())))",
    ],
    { cwd: REPO, env: { ...process.env, MLDS_NATIVE: '/nonexistent/mlds_native.node' }, encoding: 'utf8' },
  );
  assert.match(out, /^native helper not built: \/nonexistent\/mlds_native\.node is missing/);
});
