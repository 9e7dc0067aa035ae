// A/B software updates against a real RAUC (test/helpers/rauc.ts: rauc service on a private
// D-Bus, file slots, a custom bootloader script): the service in-process over HTTP and through a
// real Mosquitto. A digest or size refused before RAUC sees anything; a good bundle installed
// into slot B with its progress on /status and the result topic, then the reboot command (a
// stand-in named by MLDS_REBOOT_COMMAND); the next start in slot B reports the outcome on
// /status, /metrics and the retained status; mlds mark-good marks slot B through RAUC; an update
// that came back in the old slot is a fell-back; without RAUC, MLDS_UNAVAILABLE.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { freePort } from '../helpers/ports.js';
import { RaucRig, raucMissing } from '../helpers/rauc.js';
import { baseConfig, get, REPO, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { skipReason } from '../helpers/skip.js';
import { archiveServer } from '../helpers/zips.js';
import type { RunningService } from '../../src/main.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = skipReason(raucMissing() ?? (hasMosquitto() ? undefined : 'mosquitto is not installed (make test-deps)'));

let rig: RaucRig, broker: Broker, w: Watcher, sd: ServiceDir, svc: RunningService;
let files: { base: string; close(): void };
const served = new Map<string, Buffer>();
/** Names served half at first; the rest once `release` is called. */
const held = new Map<string, { res?: ServerResponse; release(): void }>();
let n = 0;
let restoreEnv: (() => void) | undefined;

const results = () => w.on('mlds/u1/admin/result').map((s) => JSON.parse(s.payload) as Obj);
const rebooted = () => path.join(sd.dir, 'rebooted');
const update = async () => ((await get(svc, '/status')).json as Obj).components.update as Obj;

async function admin(cmd: Obj, deadline = 60_000): Promise<Obj> {
  const req = `r${++n}`;
  await w.publish('mlds/u1/admin', JSON.stringify({ req, ...cmd }));
  await until(
    () => results().some((r) => r.req === req && r.ok !== undefined),
    deadline,
    `the result of ${cmd.cmd} (${req})`,
  );
  return results().find((r) => r.req === req && r.ok !== undefined)!;
}

function serve(name: string, bytes: Buffer): string {
  served.set(name, bytes);
  return `${files.base}/${name}`;
}

function slotHolds(slot: 'A' | 'B', image: Buffer): boolean {
  return readFileSync(rig.slot(slot)).subarray(0, image.length).equals(image);
}

before(async () => {
  if (skip) return;
  rig = new RaucRig();
  await rig.start('A');
  broker = await new Broker().start();
  files = await archiveServer(served, (name, res) => {
    const h = held.get(name);
    const body = served.get(name);
    if (!h || !body) return false;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
    res.write(body.subarray(0, body.length >> 1));
    h.res = res;
    return true;
  });
  const cfg = baseConfig();
  cfg.mqtt = { url: broker.url, unit: 'u1', keepalive: 5 };
  cfg.updateMaxMB = 2;
  sd = serviceDir(cfg);
  restoreEnv = rig.useInProcess(rebooted());
  w = await Watcher.open(broker.url, ['mlds/u1/#']);
  svc = await start(sd);
  await until(() => w.on('mlds/u1/availability').at(-1)?.payload === 'online', 15_000, 'online');
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
  'at the start RAUC tells the booted slot and both slots: /status shows them, nothing running',
  { skip },
  async () => {
    const u = await update();
    assert.equal(u.state, 'idle');
    assert.equal(u.bootSlot, 'A');
    assert.deepEqual(
      u.slots.map((s: Obj) => [s.bootname, s.state]),
      [
        ['A', 'booted'],
        ['B', 'inactive'],
      ],
    );
    assert.equal(u.last, undefined);
  },
);

test(
  'a bundle whose SHA-256 differs is refused before RAUC sees it: ' +
    'slot B, the bootloader and the state folder unchanged',
  { skip },
  async () => {
    const b = rig.bundle('1.9.0', 300_000);
    const url = serve('wrong.raucb', b.bytes);
    const r = await admin({ cmd: 'update', url, sha256: 'ab'.repeat(32) });
    assert.equal(r.ok, false);
    assert.equal(r.code, 'MLDS_DIGEST_MISMATCH');
    assert.match(r.message, new RegExp(b.sha256));
    assert.ok(
      readFileSync(rig.slot('B')).every((x) => x === 0),
      'slot B untouched',
    );
    assert.deepEqual(
      rig.backendCalls().filter((c) => c.startsWith('set-')),
      [],
      'the bootloader was not asked to change anything',
    );
    assert.deepEqual(readdirSync(path.join(sd.stateDir, 'update')), [], 'the download is removed');
    const u = await update();
    assert.equal(u.state, 'failed');
    assert.equal(u.last.outcome, 'failed');
    assert.equal(existsSync(rebooted()), false);
  },
);

test('a bundle over updateMaxMB is refused as it arrives (HTTP): nothing installed', { skip }, async () => {
  const b = rig.bundle('1.9.1', 3 * 1024 * 1024);
  const url = serve('big.raucb', b.bytes);
  const r = await get(svc, `/update?url=${encodeURIComponent(url)}&sha256=${b.sha256}`);
  assert.equal(r.status, 502);
  assert.equal(r.json.code, 'MLDS_FETCH_TOO_LARGE');
  assert.ok(
    readFileSync(rig.slot('B')).every((x) => x === 0),
    'slot B untouched',
  );
  assert.deepEqual(readdirSync(path.join(sd.stateDir, 'update')), []);
});

test('bad parameters and HEAD change nothing', { skip }, async () => {
  assert.equal((await get(svc, '/update?url=http://127.0.0.1:2000/x.raucb')).json.field, 'sha256');
  assert.equal((await get(svc, `/update?sha256=${'a'.repeat(64)}`)).json.field, 'url');
  assert.equal((await get(svc, `/update?url=ftp://x/y&sha256=${'a'.repeat(64)}`)).json.code, 'MLDS_BAD_URL');
  const state = (await update()).state;
  const head = await fetch(
    `${svc.url}/update?url=${encodeURIComponent(`${files.base}/none.raucb`)}&sha256=${'a'.repeat(64)}`,
    { method: 'HEAD' },
  );
  assert.equal(head.status, 200);
  assert.equal((await update()).state, state, 'HEAD started nothing');
});

test(
  'a good bundle: progress on /status and the result topic, one update at a time, installed into slot B, then ' +
    'the reboot',
  { skip },
  async () => {
    const b = rig.bundle('2.0.0', 1024 * 1024);
    const url = serve('good.raucb', b.bytes);
    const release = () => {
      const h = held.get('good.raucb')!;
      held.delete('good.raucb');
      h.res!.end(b.bytes.subarray(b.bytes.length >> 1));
    };
    held.set('good.raucb', { release });
    const req = `r${++n}`;
    await w.publish('mlds/u1/admin', JSON.stringify({ cmd: 'update', req, url, sha256: b.sha256 }));
    // Half the bundle is in (told at each 256 KiB): /status says so.
    let seen: Obj = {};
    await until(
      async () => {
        seen = await update();
        return seen.state === 'downloading' && seen.percent >= 25;
      },
      30_000,
      () => `downloading at half on /status: ${JSON.stringify(seen)}`,
      50,
    );
    const second = await get(svc, `/update?url=${encodeURIComponent(url)}&sha256=${b.sha256}`);
    assert.equal(second.status, 409);
    assert.equal(second.json.code, 'MLDS_UPDATE_BUSY');
    release();
    await until(() => results().some((r) => r.req === req && r.ok !== undefined), 120_000, 'the update result');
    const r = results().find((x) => x.req === req && x.ok !== undefined)!;
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.slot, 'B');
    assert.equal(r.version, '2.0.0');
    const steps = results().filter((x) => x.req === req && x.progress);
    assert.ok(
      steps.some((s) => s.progress === 'downloading' && s.percent >= 20),
      JSON.stringify(steps),
    );
    assert.ok(
      steps.some((s) => s.progress === 'installing'),
      JSON.stringify(steps),
    );
    assert.ok(steps.length <= 30, `rate-limited: ${steps.length} progress messages`);
    assert.ok(slotHolds('B', b.image), "slot B holds the bundle's image");
    assert.ok(slotHolds('A', Buffer.alloc(1024, 0x41)), 'slot A untouched');
    assert.equal(rig.bootState().primary, 'B', 'the bootloader boots B next');
    await until(() => existsSync(rebooted()), 10_000, 'the reboot command');
    const u = await update();
    assert.equal(u.state, 'rebooting');
    assert.equal(u.last.outcome, 'rebooting');
    assert.equal(u.last.slot, 'B');
    assert.deepEqual(readdirSync(path.join(sd.stateDir, 'update')), []);
  },
);

test(
  "after the reboot into slot B: the outcome, the slots' versions on /status, /metrics and the retained status",
  { skip },
  async () => {
    await svc.close();
    rmSync(rebooted(), { force: true });
    await rig.stopService();
    rig.newBoot();
    await rig.startService('B');
    svc = await start(sd);
    const u = await update();
    assert.equal(u.bootSlot, 'B');
    assert.equal(u.state, 'idle');
    assert.equal(u.last.outcome, 'installed');
    assert.equal(u.last.markedGood, false);
    assert.equal(u.slots.find((s: Obj) => s.bootname === 'B').version, '2.0.0');
    const metrics = (await get(svc, '/metrics')).text;
    assert.match(metrics, /^mlds_update_state\{state="idle"[^}]*\} 1$/m);
    assert.match(metrics, /^mlds_update_last_outcome\{outcome="installed",version="2\.0\.0"[^}]*\} 1$/m);
    assert.match(metrics, /^mlds_slot_info\{slot="B",booted="1",boot_status="good",version="2\.0\.0"[^}]*\} 1$/m);
    assert.match(metrics, /^mlds_config_generation(\{[^}]*\})? 1$/m);
    const info = (await get(svc, '/info')).text;
    assert.match(info, /<th>Slot B \(booted\)<\/th><td>2\.0\.0, good/);
    assert.match(info, /<th>Last update<\/th><td[^>]*>installed, /);
    await until(
      () => w.on('mlds/u1/status').some((s) => (JSON.parse(s.payload) as Obj).update?.outcome === 'installed'),
      30_000,
      'the retained status with the update',
    );
    const retained = w
      .on('mlds/u1/status')
      .map((s) => s.payload)
      .filter((p) => (JSON.parse(p) as Obj).update?.outcome === 'installed')
      .at(-1)!;
    assert.deepEqual((JSON.parse(retained) as Obj).update, {
      state: 'idle',
      slot: 'B',
      outcome: 'installed',
      version: '2.0.0',
    });
    assert.ok(Buffer.byteLength(retained) < 2048);
  },
);

function markGood(args: string[]): Promise<{ code: number | null; err: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO, 'src/cli.ts'),
      'mark-good',
      '--config',
      sd.configFile,
      '--state-dir',
      sd.stateDir,
      ...args,
    ],
    { cwd: REPO, env: rig.env(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, err })));
}

test(
  'mlds mark-good does not mark while the service does not answer, and exits 1 at its deadline',
  { skip },
  async () => {
    const before = rig.backendCalls().length;
    const r = await markGood(['--port', String(await freePort()), '--quiet-seconds', '1', '--deadline', '3']);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /not marked/);
    assert.deepEqual(
      rig
        .backendCalls()
        .slice(before)
        .filter((c) => c.startsWith('set-')),
      [],
    );
  },
);

test(
  'mlds mark-good marks the booted slot good through RAUC once /status was quiet, and /status says so',
  { skip },
  async () => {
    const before = rig.backendCalls().length;
    const r = await markGood(['--port', String(svc.port), '--quiet-seconds', '2', '--deadline', '60']);
    assert.equal(r.code, 0, r.err);
    assert.ok(rig.backendCalls().slice(before).includes('set-state B good'), rig.backendCalls().join('\n'));
    await until(async () => (await update()).last.markedGood === true, 20_000, 'markedGood on /status', 200);
  },
);

test(
  'an update whose slot did not stay up: the unit came back in slot B, so the update to slot A fell back',
  { skip },
  async () => {
    const b = rig.bundle('3.0.0', 512 * 1024);
    const r = await get(svc, `/update?url=${encodeURIComponent(serve('v3.raucb', b.bytes))}&sha256=${b.sha256}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.slot, 'A');
    assert.ok(slotHolds('A', b.image));
    await until(() => existsSync(rebooted()), 10_000, 'the reboot command');
    // The bootloader ran out of attempts on A and booted B again.
    await svc.close();
    await rig.stopService();
    rig.newBoot();
    await rig.startService('B');
    svc = await start(sd);
    const u = await update();
    assert.equal(u.last.outcome, 'fell-back');
    assert.match(u.last.message, /running slot B again/);
    const problems = (await get(svc, '/status')).json.problems as Obj[];
    assert.ok(problems.some((p) => p.source === 'update' && /fell back/.test(p.message)));
    assert.match(
      (await get(svc, '/metrics')).text,
      /^mlds_update_last_outcome\{outcome="fell-back",version="3\.0\.0"[^}]*\} 1$/m,
    );
    // The fell-back problem informs; it does not keep this boot's slot from being marked.
    const before = rig.backendCalls().length;
    const m = await markGood(['--port', String(svc.port), '--quiet-seconds', '1', '--deadline', '60']);
    assert.equal(m.code, 0, m.err);
    assert.ok(rig.backendCalls().slice(before).includes('set-state B good'));
  },
);

test(
  "a bundle RAUC does not trust: MLDS_UPDATE_FAILED with RAUC's error, the booted slot unchanged",
  { skip },
  async () => {
    const b = rig.bundle('4.0.0', 200_000, { untrusted: true });
    const before = readFileSync(rig.slot('A'));
    const r = await admin({ cmd: 'update', url: serve('untrusted.raucb', b.bytes), sha256: b.sha256 });
    assert.equal(r.ok, false);
    assert.equal(r.code, 'MLDS_UPDATE_FAILED');
    assert.match(r.message, /signature/);
    assert.ok(readFileSync(rig.slot('A')).equals(before));
    assert.equal((await update()).last.outcome, 'failed');
  },
);

test(
  'an HTTP client that leaves during the update: the update goes on, and the unit still reboots into it',
  { skip },
  async () => {
    rmSync(rebooted(), { force: true });
    const b = rig.bundle('5.0.0', 512 * 1024);
    const url = serve('v5.raucb', b.bytes);
    held.set('v5.raucb', {
      release: () => {
        const h = held.get('v5.raucb')!;
        held.delete('v5.raucb');
        h.res!.end(b.bytes.subarray(b.bytes.length >> 1));
      },
    });
    const gone = new AbortController();
    const asked = fetch(`${svc.url}/update?url=${encodeURIComponent(url)}&sha256=${b.sha256}`, {
      signal: gone.signal,
    }).catch(() => 'aborted');
    await until(() => held.get('v5.raucb')?.res !== undefined, 30_000, 'the download under way', 50);
    assert.equal((await update()).state, 'downloading');
    gone.abort();
    assert.equal(await asked, 'aborted');
    held.get('v5.raucb')!.release();
    await until(() => existsSync(rebooted()), 60_000, 'the reboot command after the update');
    assert.ok(slotHolds('A', b.image));
    assert.equal((await update()).last.version, '5.0.0');
  },
);

test(
  'mlds mark-good while RAUC installs: RAUC refuses to mark, mark-good asks again and marks once the install is done',
  { skip },
  async () => {
    // The unit boots the slot the last update installed (A), so it takes an update again.
    await svc.close();
    await rig.stopService();
    rig.newBoot();
    await rig.startService('A');
    svc = await start(sd);
    await until(() => w.on('mlds/u1/availability').at(-1)?.payload === 'online', 15_000, 'online again');
    rmSync(rebooted(), { force: true });
    const release = rig.hold();
    try {
      const b = rig.bundle('6.0.0', 256 * 1024);
      const booted = (await update()).bootSlot as string;
      const calls = rig.backendCalls().length;
      const result = admin({ cmd: 'update', url: serve('v6.raucb', b.bytes), sha256: b.sha256 }, 120_000);
      await until(
        () =>
          rig
            .backendCalls()
            .slice(calls)
            .some((c) => c.startsWith('set-primary')),
        60_000,
        "RAUC in the install's last step",
        50,
      );
      const marking = markGood(['--port', String(svc.port), '--quiet-seconds', '1', '--deadline', '60']);
      await until(
        () => rig.serviceLog.includes('already processing a different method'),
        30_000,
        'RAUC refusing to mark while it installs',
        100,
      );
      assert.ok(!rig.backendCalls().slice(calls).includes(`set-state ${booted} good`), 'not marked while RAUC is busy');
      release();
      const m = await marking;
      assert.equal(m.code, 0, m.err);
      assert.match(m.err, /RAUC is busy \(.*already processing a different method.*\); asking again/);
      assert.ok(
        rig.backendCalls().slice(calls).includes(`set-state ${booted} good`),
        rig.backendCalls().slice(calls).join('\n'),
      );
      assert.equal((await result).ok, true);
    } finally {
      release();
    }
  },
);

test(
  "a start without RAUC's service answering: the service runs, /status says why, an update is MLDS_UNAVAILABLE",
  { skip },
  async () => {
    await svc.close();
    await rig.stopService();
    rig.newBoot();
    svc = await start(sd);
    await until(() => w.on('mlds/u1/availability').at(-1)?.payload === 'online', 15_000, 'online again');
    const r = await admin({ cmd: 'update', url: `${files.base}/v3.raucb`, sha256: 'a'.repeat(64) });
    assert.equal(r.code, 'MLDS_UNAVAILABLE');
    assert.match(r.message, /D-Bus/);
    const h = await get(svc, `/update?url=${encodeURIComponent(`${files.base}/v3.raucb`)}&sha256=${'a'.repeat(64)}`);
    assert.equal(h.status, 503);
    const u = await update();
    assert.match(u.rauc, /does not answer/);
    assert.equal(u.bootSlot, null);
    assert.equal(u.state, 'idle');
  },
);

test(
  'without /etc/rauc/system.conf the update component is not loaded: MLDS_UNAVAILABLE over HTTP and MQTT',
  { skip },
  async () => {
    await svc.close();
    process.env.MLDS_RAUC_CONF = path.join(rig.dir, 'absent.conf');
    svc = await start(sd);
    assert.equal(((await get(svc, '/status')).json as Obj).components.update, undefined);
    const h = await get(svc, `/update?url=${encodeURIComponent(`${files.base}/v3.raucb`)}&sha256=${'a'.repeat(64)}`);
    assert.equal(h.status, 503);
    assert.equal(h.json.code, 'MLDS_UNAVAILABLE');
    await until(() => w.on('mlds/u1/availability').at(-1)?.payload === 'online', 15_000, 'online again');
    const r = await admin({ cmd: 'update', url: `${files.base}/v3.raucb`, sha256: 'a'.repeat(64) });
    assert.equal(r.code, 'MLDS_UNAVAILABLE');
    assert.match(r.message, /RAUC/);
  },
);
