// `make test-image`, the A/B half: build/mlds-arm64.img under qemu-system-aarch64 (UEFI, the
// image's GRUB), a mosquitto broker and a file server on this machine (the guest reaches them at
// 10.0.2.2, QEMU's user network), and two bundles made here from build/mlds-arm64-root.ext4 with
// scripts/image/bundle.sh: one of a higher version, one whose mlds.service cannot start. In order:
// slot A boots from GRUB with a read-only root; a configuration pushed over MQTT to a group of one
// (load_config with its SHA-256) shows on the panel; the `update` admin command with the higher
// bundle: the service downloads it, RAUC installs it into B, the service reboots the controller
// into B, mlds-mark-good.service marks B good and the service reports the new version and the
// outcome `installed`; `update` with the broken bundle goes into A, each boot of it reboots when
// the service's start limit is hit, GRUB's three tries run out, B boots again and the service
// reports `fell-back`; a hung kernel (sysrq's crash with panic=0) is reset by the machine's
// hardware watchdog (an i6300esb that systemd pets), and GRUB counts that boot as a try of B.
// A file in /var/lib/mlds (the data partition) survives every reboot. Each
// step's time, the bundle's size and the time from `update` to B marked good are printed.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { REPO } from '../helpers/service.js';
import { entriesOf, makeZip } from '../helpers/zips.js';
import {
  AGENT_FILES,
  AGENT_LINK,
  bootImage,
  debugfs,
  imageUnavailable,
  prepareImage,
  SLOW_GUEST_FILES,
  writeFiles,
} from './vm/image.js';
import type { Machine } from './vm/machine.js';
import { dumper, panelConfig, PANEL, pixelAt, probes, until } from './vm/screens.js';

const CACHE = join(REPO, '.vm');
const ROOTFS = process.env.MLDS_ROOTFS ?? join(REPO, 'build', 'mlds-arm64-root.ext4');
const KEY = process.env.BUNDLE_KEY ?? join(REPO, 'dev-keys', 'signing.key.pem');
const CERT = process.env.BUNDLE_CERT ?? join(REPO, 'dev-keys', 'signing.cert.pem');
const HOST = '10.0.2.2';
const INFO_S = 20;
const GREEN = [0, 160, 0];

const skip =
  imageUnavailable() ??
  (existsSync(ROOTFS) ? undefined : `${ROOTFS} is missing (make image-arm64)`) ??
  (existsSync(KEY) && existsSync(CERT) ? undefined : `${KEY} or ${CERT} is missing (make bundle-keys)`) ??
  (spawnSync('rauc', ['--version']).error ? 'rauc is not installed (Debian package rauc)' : undefined) ??
  (hasMosquitto() ? undefined : 'mosquitto is not installed');
if (skip) console.log(`# A/B image test skipped: ${skip}`);

const [maj, min, patch] = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version
  .split(/[.-]/)
  .map(Number);
const V2 = `${maj}.${min}.${patch + 1}`,
  V3 = `${maj}.${min}.${patch + 2}`;

/**
 * A bundle of the image's root with `files` written over and /opt/mlds/package.json at `version` (bundle.sh runs in the
 * background).
 */
function bundle(
  work: string,
  name: string,
  version: string,
  files: Record<string, string>,
  links: Array<[string, string]>,
): Promise<string> {
  const fs = join(work, `${name}.ext4`),
    out = join(work, `${name}.raucb`);
  execFileSync('cp', ['--sparse=always', ROOTFS, fs]);
  const pkg = JSON.parse(debugfs(fs, undefined, ['cat /opt/mlds/package.json']).split('\n').slice(1).join('\n')) as {
    version: string;
  };
  writeFiles(
    fs,
    undefined,
    work,
    { ...files, '/opt/mlds/package.json': JSON.stringify({ ...pkg, version }, null, 2) + '\n' },
    links,
  );
  return new Promise((resolve, reject) => {
    const p = spawn(join(REPO, 'scripts/image/bundle.sh'), [fs, version, out], {
      env: { ...process.env, BUNDLE_KEY: KEY, BUNDLE_CERT: CERT },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    p.stdout.on('data', (d) => {
      log += d;
    });
    p.stderr.on('data', (d) => {
      log += d;
    });
    p.on('exit', (code) => {
      rmSync(fs, { force: true });
      if (code === 0) {
        console.log(`# ${log.trim()}`);
        resolve(out);
      } else reject(new Error(`bundle.sh ${name}: ${code}\n${log}`));
    });
  });
}

/** A loopback file server of `files` (name -> path), reached by the guest at 10.0.2.2. */
async function fileServer(files: Map<string, string>): Promise<{ port: number; close(): void }> {
  const server = createServer((req, res) => {
    const f = files.get((req.url ?? '/').slice(1));
    if (!f) return void res.writeHead(404).end('not here');
    res.writeHead(200, { 'content-length': statSync(f).size });
    createReadStream(f).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

test(
  'A/B: slot A, a configuration over MQTT, a higher bundle into B marked good, a broken bundle falls back; state ' +
    'survives',
  { skip, timeout: 4 * 3_600_000 },
  async (t) => {
    mkdirSync(CACHE, { recursive: true });
    const work = mkdtempSync(join(CACHE, 'image-ab-'));
    const t0 = Date.now();
    let lap = t0;
    const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
    const step = (name: string) => {
      console.log(`# step "${name}": ${((Date.now() - lap) / 1000).toFixed(1)} s (at ${stamp()})`);
      lap = Date.now();
    };
    const broker = await new Broker().start();
    const served = new Map<string, string>();
    const files = await fileServer(served);
    const op = await Watcher.open(broker.url, ['mlds/#']);
    let vm: Machine | undefined;
    try {
      const mqttConfig = {
        url: `mqtt://${HOST}:${broker.port}`,
        unit: 'ab1',
        groups: ['solo'],
        groupAdmin: true,
        keepalive: 10,
      };
      const config = { ...(panelConfig(INFO_S, 'A/B test LCD') as Record<string, unknown>), mqtt: mqttConfig };
      const { disk } = prepareImage(work, { '/etc/mlds/config.json': JSON.stringify(config, null, 1) });
      // The bundles are made while the guest boots.
      const higher = bundle(work, 'higher', V2, AGENT_FILES, [AGENT_LINK]);
      const broken = higher.then(() =>
        bundle(
          work,
          'broken',
          V3,
          {
            ...SLOW_GUEST_FILES,
            '/etc/systemd/system/mlds.service.d/broken.conf': '[Service]\nExecStart=\nExecStart=/bin/false\n',
          },
          [],
        ),
      );
      broken.catch(() => undefined);
      step('copy the image, add the test files, start the bundles');
      vm = await bootImage({
        work,
        disk,
        onLine: (l) => {
          if (
            process.env.MLDS_VM_VERBOSE ||
            /mlds:|mlds\.service|Watchdog|FAILED|emergency|Kernel panic|rauc|reboot/i.test(l)
          )
            console.log(`# guest ${stamp()}: ${l}`);
        },
      });
      const m = vm;
      const base = `http://127.0.0.1:${m.port}`;
      const { dump, keep } = dumper(m, work, join(CACHE, 'image-ab-screens'));
      const { json } = probes(m);
      const sh = async (cmd: string, ms = 120_000) => {
        const r = await m.sh(cmd, ms);
        assert.equal(r.code, 0, `${cmd}: ${r.out}`);
        return r.out;
      };
      const grubenv = async () =>
        Object.fromEntries(
          (await sh('grub-editenv /boot/efi/EFI/BOOT/grubenv list')).split('\n').map((l) => l.split('=', 2)),
        );
      const marks: string[] = [];
      /** One more line in the state file on the data partition; every earlier one must still be there. */
      const markState = async (what: string) => {
        const before = (await m.sh('cat /var/lib/mlds/ab-test.state 2>/dev/null')).out;
        assert.equal(before.trim(), marks.join('\n'), 'the state file survived');
        marks.push(what);
        await sh(`echo ${what} >> /var/lib/mlds/ab-test.state`);
      };
      /** Waits for the guest's shell after a reboot (more starts than `starts`) and for the service in `slot`. */
      const bootedInto = async (slot: string, starts: number, deadlineMs: number) => {
        await until(
          `the shell after the reboot into ${slot}`,
          deadlineMs,
          async () => m.agentStarts() > starts || undefined,
        );
        assert.match(await sh('cat /proc/cmdline'), new RegExp(`rauc\\.slot=${slot} `));
        await until(
          'mlds.service active',
          1_200_000,
          async () => /^active$/.test((await m.sh('systemctl is-active mlds')).out.trim()) || undefined,
        );
      };
      const results = () => op.on('mlds/ab1/admin/result').map((x) => JSON.parse(x.payload) as Record<string, unknown>);
      /** The `update` admin command for a bundle served here; resolves with its result (the unit reboots after it). */
      const update = async (req: string, name: string, path: string) => {
        served.set(name, path);
        const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
        await op.publish(
          'mlds/ab1/admin',
          JSON.stringify({ cmd: 'update', req, url: `http://${HOST}:${files.port}/${name}`, sha256 }),
        );
        const r = await until(`the result of update ${req}`, 3_600_000, async () =>
          results().find((x) => x.req === req && x.ok !== undefined),
        );
        assert.equal(r.ok, true, JSON.stringify(r));
        const steps = results()
          .filter((x) => x.req === req && x.progress)
          .map((x) => x.progress);
        assert.ok(
          steps.includes('downloading') && steps.includes('installing'),
          `progress on the result topic: ${steps.join(', ')}`,
        );
        return r;
      };
      const updateStatus = async () =>
        (await json('/status'))?.components?.update as
          { last?: { outcome?: string; markedGood?: boolean; version?: string } } | undefined;

      await t.test('slot A from GRUB, the root read-only, the data partition writable', async () => {
        await until(
          'the shell on the virtio port',
          1_200_000,
          async () => (await m.sh('true').catch(() => undefined))?.code === 0,
        );
        await until(
          'mlds.service active',
          1_200_000,
          async () => /^active$/.test((await m.sh('systemctl is-active mlds')).out.trim()) || undefined,
        );
        step('boot to mlds READY in slot A');
        assert.match(await sh('cat /proc/cmdline'), /rauc\.slot=A /);
        const w = await m.sh('touch /etc/ab-write-test');
        assert.notEqual(w.code, 0);
        assert.match(w.out, /Read-only file system/);
        await sh('rm -f /var/lib/mlds/ab-test.state');
        await markState('A-1');
        const env = await grubenv();
        assert.deepEqual([env.ORDER, env.A_OK, env.B_OK], ['A B', '1', '0']);
      });

      await t.test('a configuration pushed over MQTT to a group of one shows on the panel', async () => {
        await until(
          'the unit on the broker',
          600_000,
          async () => op.on('mlds/ab1/availability').some((s) => s.payload === 'online') || undefined,
        );
        const dir = mkdtempSync(join(work, 'cfg-'));
        const next = structuredClone(config) as unknown as {
          displays: { main: { layout: { l: { line: { backgroundColor: string } } } } };
        };
        next.displays.main.layout.l.line.backgroundColor = GREEN.join(' ');
        writeFileSync(join(dir, 'config.json'), JSON.stringify(next));
        const zip = makeZip(join(work, 'cfg.zip'), entriesOf(dir));
        served.set('cfg.zip', zip);
        const sha256 = createHash('sha256').update(readFileSync(zip)).digest('hex');
        await op.publish(
          'mlds/group/solo/admin',
          JSON.stringify({ cmd: 'load_config', req: 'ab-cfg', url: `http://${HOST}:${files.port}/cfg.zip`, sha256 }),
        );
        const result = await until('the load_config result', 600_000, async () =>
          op
            .on('mlds/ab1/admin/result')
            .map((s) => JSON.parse(s.payload) as Record<string, unknown>)
            .find((r) => r.req === 'ab-cfg' && r.ok !== undefined),
        );
        assert.equal(result.ok, true, JSON.stringify(result));
        const r = await fetch(`${base}/mlds?id=main&layout=l&line=5&dest=Depot`);
        assert.equal(r.status, 200, await r.text());
        const d = await until("the pushed configuration's colour on the panel", (INFO_S + 600) * 1000, async () => {
          const p = await dump();
          return pixelAt(p.pixels, PANEL.width, 2, 2).join() === GREEN.join() ? p : undefined;
        });
        keep('1-config-over-mqtt');
        assert.deepEqual(pixelAt(d.pixels, PANEL.width, 318, 2), [0, 0, 64]);
        step('load_config over MQTT shown on the panel');
      });

      let installToGood = 0;
      await t.test(
        'a higher-version bundle: RAUC installs it into B, B boots, is marked good and reports the new version',
        async () => {
          const path = await higher;
          const bytes = statSync(path).size;
          console.log(`# bundle ${path}: ${(bytes / 1048576).toFixed(1)} MiB (version ${V2})`);
          step('the higher bundle built');
          const t1 = Date.now();
          const starts = m.agentStarts();
          await markState('A-update-B');
          const r = await update('ab-up', 'higher.raucb', path);
          assert.deepEqual([r.slot, r.version], ['B', V2]);
          step('update: downloaded and installed into B by RAUC');
          await bootedInto('B', starts, 1_800_000);
          step('the service rebooted the controller into B, mlds READY');
          assert.ok(JSON.stringify(await json('/status')).includes(`"${V2}"`), `the service reports ${V2}`);
          assert.equal((await updateStatus())?.last?.outcome, 'installed');
          await until(
            'B marked good by mlds-mark-good.service',
            1_800_000,
            async () => (await updateStatus())?.last?.markedGood === true || undefined,
          );
          installToGood = (Date.now() - t1) / 1000;
          assert.match(
            (await sh('systemctl show -p Result -p ExecMainStatus mlds-mark-good')).replace(/\n/g, ' '),
            /Result=success/,
          );
          const after = await grubenv();
          assert.deepEqual([after.ORDER, after.B_OK, after.B_TRY], ['B A', '1', '0'], 'B is good');
          const st = JSON.parse(
            (await sh('rauc status --detailed --output-format=json 2>/dev/null')).replace(/^[^{]*/, ''),
          ) as {
            booted: string;
            slots: Array<Record<string, { boot_status?: string; slot_status?: { bundle?: { version?: string } } }>>;
          };
          assert.equal(st.booted, 'B');
          const b = st.slots.map((s) => s['rootfs.1']).find(Boolean);
          assert.equal(b?.boot_status, 'good');
          assert.equal(b?.slot_status?.bundle?.version, V2);
          console.log(`# from update to B marked good: ${installToGood.toFixed(0)} s`);
          step('B marked good, version reported');
          await markState('B-1');
        },
      );

      await t.test("a bundle whose service cannot start: its boots use up GRUB's tries and B boots again", async () => {
        const path = await broken;
        const starts = m.agentStarts();
        await markState('B-update-A');
        const from = m.lines.length;
        const r = await update('ab-broken', 'broken.raucb', path);
        assert.deepEqual([r.slot, r.version], ['A', V3]);
        step('update with the broken bundle: installed into A');
        await bootedInto('B', starts, 3_600_000);
        step('three boots of A, then B again, to mlds READY');
        const consoleSince = m.lines.slice(from).join('\n');
        const choices = [...consoleSince.matchAll(/mlds: booting slot ([AB])/g)].map((x) => x[1]).join(' ');
        console.log(`# GRUB's choices: ${choices || '(not on the serial console)'}`);
        const after = await grubenv();
        assert.deepEqual(
          [after.ORDER, after.A_OK, after.A_TRY, after.B_OK],
          ['A B', '1', '3', '1'],
          'A used its three tries, B is good',
        );
        // The persistent journal (on the data partition) has the broken slot's boots.
        const boots = await sh('journalctl --list-boots --no-pager | tail -n 5');
        console.log(`# ${boots.replace(/\n/g, ' | ')}`);
        const failed = await sh(
          'for b in -3 -2 -1; do journalctl -b $b -o cat --no-pager | grep -c -E "Start request repeated too ' +
            'quickly|start-limit-hit|Rebooting: unit mlds.service failed" || true; done',
        );
        assert.ok(
          failed.split('\n').filter((n) => Number(n) > 0).length >= 2,
          `the broken slot's boots hit mlds.service's start limit:\n${failed}`,
        );
        const st = JSON.parse(
          (await sh('rauc status --detailed --output-format=json 2>/dev/null')).replace(/^[^{]*/, ''),
        ) as { booted: string; slots: Array<Record<string, { boot_status?: string }>> };
        assert.equal(st.booted, 'B');
        assert.equal(st.slots.map((s) => s['rootfs.0']).find(Boolean)?.boot_status, 'bad', 'RAUC reports A bad');
        const status = await json('/status');
        assert.ok(JSON.stringify(status).includes(`"${V2}"`), `B's service (${V2}) runs again`);
        assert.equal((await updateStatus())?.last?.outcome, 'fell-back', 'the service reports the failed update');
        await markState('B-2');
        step('fell back to B');
      });

      await t.test(
        "a hung kernel: the hardware watchdog resets the controller, and the reset uses one of B's tries",
        async () => {
          assert.match(
            await sh('systemctl show -p RuntimeWatchdogUSec; ls /dev/watchdog0'),
            /RuntimeWatchdogUSec=30s\n\/dev\/watchdog0/,
          );
          // systemd holds the device open and has set its timeout (the kernel's sysfs view of it).
          const wd = await m.sh('cat /sys/class/watchdog/watchdog0/state /sys/class/watchdog/watchdog0/timeout');
          if (wd.code === 0) assert.match(wd.out, /^active\n30$/m, wd.out);
          else console.log(`# no watchdog state in sysfs: ${wd.out.trim()}`);
          // Counted from a slot marked good: the fallback boot's own try is given back first.
          await until(
            'B marked good after the fallback',
            1_200_000,
            async () => (await grubenv()).B_TRY === '0' || undefined,
          );
          const starts = m.agentStarts();
          const from = m.lines.length;
          await markState('B-hang');
          // panic=0: the kernel stops where it panics and never restarts by itself; only the watchdog can.
          // sync first: the state file's new line must be on the disk before the kernel stops.
          await sh(
            'sync; nohup sh -c "sleep 2; sync; echo 0 > /proc/sys/kernel/panic; echo c > /proc/sysrq-trigger" ' +
              '>/dev/null 2>&1 &',
          );
          await bootedInto('B', starts, 1_800_000);
          step('a hung kernel reset by the watchdog, B again to mlds READY');
          const lines = m.lines.slice(from);
          const panicAt = lines.findIndex((l) => /Kernel panic - not syncing: sysrq triggered crash/.test(l));
          const bootAt = lines.findIndex((l) => /mlds: booting slot /.test(l));
          assert.ok(
            panicAt >= 0 && bootAt > panicAt,
            `the panic, then GRUB, on the console:\n${lines.slice(0, 40).join('\n')}`,
          );
          assert.ok(
            !lines.slice(panicAt, bootAt).some((l) => /Rebooting in|reboot: Restarting/.test(l)),
            'the kernel did not restart itself',
          );
          assert.match(
            lines[bootAt],
            /mlds: booting slot B \(A_OK=1 A_TRY=3 B_OK=1 B_TRY=1\)/,
            'GRUB counted the reset as a try of B',
          );
          await until('B marked good again', 1_200_000, async () => (await grubenv()).B_TRY === '0' || undefined);
          await markState('B-3');
          step("B marked good again after the watchdog's reset");
        },
      );

      await sh('systemctl poweroff --no-block');
      const code = await Promise.race([m.exited, new Promise((r) => setTimeout(() => r('timeout'), 300_000).unref())]);
      assert.equal(code, 0, 'the guest powered off');
      console.log(`# whole run ${stamp()}; update to marked good ${installToGood.toFixed(0)} s`);
    } finally {
      vm?.kill();
      await op.close();
      files.close();
      await broker.cleanup();
      if (!process.env.MLDS_VM_KEEP) rmSync(work, { recursive: true, force: true });
    }
  },
);
