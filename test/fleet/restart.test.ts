// restart and reboot over MQTT, on the real CLI in a child process: the result reaches the
// broker before the unit acts; restart ends the service with the exit code systemd's
// Restart=on-failure starts again; reboot runs the system's reboot command (here a stand-in
// named by MLDS_REBOOT_COMMAND that leaves a file).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { startCli, type CliChild } from '../helpers/cli-child.js';
import { baseConfig, serviceDir, until, type ServiceDir } from '../helpers/service.js';
import { RESTART_EXIT_CODE } from '../../src/device/power.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
let broker: Broker, sd: ServiceDir, w: Watcher, cli: CliChild;
const results = () => w.on('mlds/r1/admin/result').map((s) => JSON.parse(s.payload) as Record<string, unknown>);

before(async () => {
  if (skip) return;
  broker = await new Broker().start();
  const cfg = baseConfig();
  cfg.mqtt = { url: broker.url, unit: 'r1', keepalive: 5 };
  sd = serviceDir(cfg);
  w = await Watcher.open(broker.url, ['mlds/r1/#']);
  process.env.MLDS_REBOOT_COMMAND = `touch ${path.join(sd.dir, 'rebooted')}`;
  cli = await startCli(sd);
  await until(() => w.on('mlds/r1/availability').at(-1)?.payload === 'online', 15_000, 'online');
});

after(async () => {
  if (skip) return;
  delete process.env.MLDS_REBOOT_COMMAND;
  await cli?.kill();
  await w?.close();
  await broker?.cleanup();
  sd?.cleanup();
});

test('reboot answers, then runs the reboot command', { skip }, async () => {
  await w.publish('mlds/r1/admin', '{"cmd":"reboot","req":"b1"}');
  await until(() => existsSync(path.join(sd.dir, 'rebooted')), 10_000, 'the reboot command run');
  assert.deepEqual(
    results().find((r) => r.req === 'b1'),
    { req: 'b1', cmd: 'reboot', ok: true, code: null, message: 'the controller reboots now' },
  );
});

test('restart answers, stops cleanly (offline) and exits with the code systemd restarts on', { skip }, async () => {
  await w.publish('mlds/r1/admin', '{"cmd":"restart","req":"s1"}');
  const code = await cli.exited;
  assert.equal(code, RESTART_EXIT_CODE);
  assert.equal(results().find((r) => r.req === 's1')?.ok, true, 'the result went out before the exit');
  await until(
    () => w.on('mlds/r1/availability').at(-1)?.payload === 'offline',
    5000,
    'a clean offline, not the Last Will after a timeout',
  );
});
