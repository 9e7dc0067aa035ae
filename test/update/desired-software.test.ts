// Software as desired state over a real Mosquitto, installed by a real RAUC (test/helpers/rauc.ts):
// the retained `software` part of a unit's desired document is fetched, checked and installed into
// slot B, reported pending while the unit reboots into it; started again in slot B, a unit whose
// running version is still not the one desired reports the part failed and does not install again
// (an install at every start would be a reboot loop).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { VERSION } from '../../src/version.js';
import type { RunningService } from '../../src/main.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { RaucRig, raucMissing } from '../helpers/rauc.js';
import { baseConfig, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { skipReason } from '../helpers/skip.js';
import { archiveServer } from '../helpers/zips.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = skipReason(raucMissing() ?? (hasMosquitto() ? undefined : 'mosquitto is not installed (make test-deps)'));
let restoreEnv: (() => void) | undefined;

let rig: RaucRig, broker: Broker, w: Watcher, sd: ServiceDir, svc: RunningService | undefined;
let files: { base: string; close(): void };
const served = new Map<string, Buffer>();
const rebooted = () => path.join(sd.dir, 'rebooted');
const reported = (): Obj | undefined => {
  const last = w.on('mlds/u1/reported').at(-1);
  return last ? (JSON.parse(last.payload) as Obj) : undefined;
};
const software = () => reported()?.parts?.software as Obj | undefined;

before(async () => {
  if (skip) return;
  rig = new RaucRig();
  await rig.start('A');
  broker = await new Broker().start();
  files = await archiveServer(served);
  const cfg = baseConfig();
  cfg.mqtt = { url: broker.url, unit: 'u1', keepalive: 5 };
  cfg.updateMaxMB = 2;
  sd = serviceDir(cfg);
  restoreEnv = rig.useInProcess(rebooted());
  w = await Watcher.open(broker.url, ['mlds/u1/#']);
});

after(async () => {
  if (skip) return;
  restoreEnv?.();
  await svc?.close();
  await w?.close();
  files?.close();
  await broker?.cleanup();
  await rig?.cleanup();
  sd?.cleanup();
});

test(
  'a desired software version is installed by RAUC into slot B and the unit reboots into it; back in slot B on ' +
    'another version, the part fails with why and nothing is installed again',
  { skip },
  async () => {
    const b = rig.bundle('9.1.0', 512 * 1024);
    served.set('v9.raucb', b.bytes);
    const url = `${files.base}/v9.raucb`;
    await w.publish(
      'mlds/u1/desired',
      JSON.stringify({ rev: 's1', software: { version: '9.1.0', url, sha256: b.sha256 } }),
      { retain: true },
    );
    svc = await start(sd);
    await until(() => existsSync(rebooted()), 120_000, 'the reboot command after the install');
    assert.ok(
      readFileSync(rig.slot('B')).subarray(0, b.image.length).equals(b.image),
      "slot B holds the bundle's image",
    );
    assert.equal(rig.bootState().primary, 'B', 'the bootloader boots B next');
    // Pending twice: "installing" first, then installed and rebooting.
    const installed = /version 9\.1\.0 installed; rebooting into it/;
    await until(
      () => software()?.state === 'pending' && installed.test(software()!.message),
      10_000,
      () => `pending, installed: ${JSON.stringify(reported())}`,
    );
    const installs = rig.backendCalls().filter((c) => c.startsWith('set-primary')).length;
    assert.ok(installs >= 1, `RAUC set the primary slot: ${rig.backendCalls().join(', ')}`);

    // The reboot: RAUC's service and the unit start again, booted from slot B.
    await svc.close();
    svc = undefined;
    rmSync(rebooted(), { force: true });
    await rig.stopService();
    rig.newBoot();
    await rig.startService('B');
    const seen = w.on('mlds/u1/reported').length;
    svc = await start(sd);
    await until(
      () => w.on('mlds/u1/reported').length > seen && software()?.state === 'failed',
      30_000,
      () => `the part failed: ${JSON.stringify(reported())}`,
    );
    assert.match(software()!.message, new RegExp(`runs version ${VERSION.replace(/\./g, '\\.')}, not 9\\.1\\.0`));
    assert.equal(
      rig.backendCalls().filter((c) => c.startsWith('set-primary')).length,
      installs,
      'the bundle is not installed again',
    );
    assert.equal(existsSync(rebooted()), false, 'no second reboot');
  },
);
