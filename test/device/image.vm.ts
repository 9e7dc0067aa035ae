// `make test-image` (not `make test`: many minutes under TCG). build/mlds-arm64.img boots under
// qemu-system-aarch64 -M virt -cpu cortex-a53 through UEFI and the image's GRUB (slot A),
// virtio-gpu (DRM fbdev emulation gives /dev/fb0) and user-mode networking with the service's port
// forwarded here. A copy of the image gets only what the test needs, written with debugfs: a
// small panel's configuration (on the data partition) for /dev/fb0, the MLDS_TEST_HOOKS=1 drop-in (SIGUSR2 stops the
// frame loops) and a shell on a virtio serial port. Through QEMU's screendumps and HTTP, in order:
// the info screen with the guest's address after boot, /mlds changing the panel, `systemctl
// restart` blanking, showing the info screen and replaying, kill -9 and a stalled frame loop (the
// watchdog) each restarted by systemd. Each step's time is printed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';
import { bootImage, GUEST_IP, imageUnavailable, prepareImage } from './vm/image.js';
import type { Machine } from './vm/machine.js';
import { dumper, panelConfig, PANEL, pixelAt, probes, until } from './vm/screens.js';

const CACHE = join(REPO, '.vm');
const SCREENS = join(CACHE, 'image-screens');
const W = PANEL.width;
// Long enough to screendump the info screen under TCG, where a frame takes a while.
const INFO_S = 45;
const REQUEST = 'id=main&layout=l&line=7&dest=Depot';

const CONFIG = panelConfig(INFO_S, 'Image test LCD');
const at = (px: Buffer, x: number, y: number) => pixelAt(px, W, x, y);

const skip = imageUnavailable();
if (skip) console.log(`# image test skipped: ${skip}`);

test(
  'the arm64 image boots to the info screen; /mlds, restart, kill -9 and the watchdog on the panel',
  { skip, timeout: 3_600_000 },
  async (t) => {
    mkdirSync(CACHE, { recursive: true });
    const work = mkdtempSync(join(CACHE, 'image-test-'));
    let vm: Machine | undefined;
    const t0 = Date.now();
    let lap = t0;
    const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
    const step = (name: string) => {
      console.log(`# step "${name}": ${((Date.now() - lap) / 1000).toFixed(1)} s (at ${stamp()})`);
      lap = Date.now();
    };
    try {
      const { disk } = prepareImage(work, {
        '/etc/systemd/system/mlds.service.d/test.conf': '[Service]\nEnvironment=MLDS_TEST_HOOKS=1\n',
        '/etc/mlds/config.json': JSON.stringify(CONFIG, null, 1),
      });
      step('copy the image, add the test files to slot A and the data partition');
      vm = await bootImage({
        work,
        disk,
        onLine: (l) => {
          if (process.env.MLDS_VM_VERBOSE || /mlds|Watchdog|FAILED|emergency|Kernel panic|Reached target/i.test(l))
            console.log(`# guest ${stamp()}: ${l}`);
        },
      });
      const m = vm;
      const base = `http://127.0.0.1:${m.port}`;
      const { dump, keep, panelShows, watch } = dumper(m, work, SCREENS);
      const { json, shot, showing, mainPid, restarts } = probes(m);

      await t.test("boot: READY=1 and the info screen with the guest's address on the panel", async () => {
        // sh() gives up on the shell after 5 minutes; a slow boot just asks again.
        await until(
          'the shell on the virtio port',
          1_200_000,
          async () => (await m.sh('true').catch(() => undefined))?.code === 0,
        );
        step('firmware, GRUB, kernel, initrd and systemd up to the test shell');
        await until(
          'mlds.service active',
          900_000,
          async () => /^active$/.test((await m.sh('systemctl is-active mlds')).out.trim()) || undefined,
        );
        step('mlds.service READY=1 (systemctl is-active)');
        const st = await m.sh(
          'systemctl show -p StatusText -p User -p Type -p WatchdogUSec -p ExecMainStartTimestamp mlds; uname ' +
            '-m; cat /sys/class/graphics/fb0/virtual_size; cat /sys/class/graphics/fb0/name',
        );
        console.log(`# ${stamp()} ${st.out.replace(/\n/g, ' | ')}`);
        const net = await m.sh('ip -br addr; networkctl --no-pager list; ss -ltn');
        console.log(`# ${stamp()} ${net.out.replace(/\n/g, ' | ')}`);
        assert.match(st.out, /Type=notify/);
        assert.match(st.out, /User=mlds/);
        assert.match(st.out, /^aarch64$/m);
        assert.match(st.out, /virtio_gpudrmfb|virtio/);
        assert.equal(await showing(), 'info');
        const d = await until('the info screen on the panel', 60_000, async () => {
          const p = await dump();
          return p.pixels.some((v) => v > 0) && p.pixels.equals(await shot()) ? p : undefined;
        });
        keep('1-info-screen');
        assert.ok(d.blackOutside, 'nothing but the panel is drawn (the console let go of /dev/fb0)');
        const ip = (await json('/status'))?.identity?.addresses as Array<{ interface: string; address: string }>;
        assert.deepEqual(
          ip.map((a) => [a.interface, a.address]),
          [['eth0', GUEST_IP]],
          'the DHCP address (systemd-networkd) the info screen lists',
        );
        step('info screen checked');
      });

      await t.test(
        'slot A from GRUB: RAUC knows it, the root is read-only, the data partition holds the state',
        async () => {
          const cmdline = (await m.sh('cat /proc/cmdline')).out;
          assert.match(cmdline, /rauc\.slot=A/);
          assert.match(cmdline, /root=\/dev\/disk\/by-partlabel\/rootfs-a ro /);
          const rauc = await m.sh('rauc status --output-format=json 2>/dev/null');
          assert.equal(rauc.code, 0, rauc.out);
          // Until the slot is marked good its try counter is up, so RAUC names no primary yet: only the booted slot is
          // asserted.
          const st = JSON.parse(rauc.out.slice(rauc.out.indexOf('{'))) as { compatible: string; booted: string };
          assert.deepEqual([st.compatible, st.booted], ['mlds-arm64', 'A']);
          const w = await m.sh('touch /mlds-write-test');
          assert.notEqual(w.code, 0, 'a write to / fails');
          assert.match(w.out, /Read-only file system/);
          assert.match((await m.sh('findmnt -no OPTIONS /')).out, /^ro,/);
          for (const dir of [
            '/etc/mlds',
            '/var/lib/mlds',
            '/var/log',
            '/var/lib/systemd',
            '/var/cache/mlds',
            '/etc/systemd/network',
          ]) {
            assert.match(
              (await m.sh(`findmnt -no SOURCE ${dir}`)).out,
              /\/dev\/vda4\[\/[a-z/]+\]/,
              `${dir} is bound from the data partition`,
            );
          }
          assert.equal(
            (await m.sh('su -s /bin/sh mlds -c "touch /var/lib/mlds/written && rm /var/lib/mlds/written"')).code,
            0,
            "the service's state folder is writable",
          );
          step('slot A, read-only root, data partition checked');
        },
      );

      await t.test('/mlds through the forwarded port changes the panel', async () => {
        const r = await fetch(`${base}/mlds?${REQUEST}`);
        assert.equal(r.status, 200, await r.text());
        await until(
          'the displays after the info screen',
          (INFO_S + 120) * 1000,
          async () => (await showing()) === 'content',
        );
        const d = await panelShows('content', 120_000);
        keep('2-request');
        assert.deepEqual(at(d.pixels, 2, 2), [255, 170, 0], "the line area's background");
        assert.deepEqual(at(d.pixels, 318, 2), [0, 0, 64], "the destination area's background");
        assert.deepEqual(d.pixels, await shot(), "the panel shows exactly the service's frame");
        step('/mlds shown on the panel');
      });

      await t.test('systemctl restart: black, the info screen, then the replay', async () => {
        const before = await mainPid();
        const { seen, stop } = watch('3-restart');
        const r = await m.sh('systemctl restart mlds', 900_000);
        assert.equal(r.code, 0, r.out);
        assert.notEqual(await mainPid(), before);
        await until('the replay', (INFO_S + 300) * 1000, async () => (await showing()) === 'content');
        await until('the panel showing the replay', 120_000, async () => seen.at(-1) === 'content' || undefined);
        await stop();
        console.log(`# ${stamp()} panel during restart: ${seen.join(' -> ')}`);
        const firstBlack = seen.indexOf('black');
        assert.ok(firstBlack > 0, `black after the content (${seen.join(' -> ')})`);
        assert.deepEqual(
          seen.slice(firstBlack).filter((k) => k !== 'black'),
          ['other', 'content'],
          'then the info screen, then the replay',
        );
        assert.equal((await json('/status'))?.displays?.[0]?.lastCommand?.source, 'replay');
        step('systemctl restart to the replay');
      });

      await t.test('kill -9: systemd restarts the service', async () => {
        const before = await mainPid();
        await m.sh(`kill -9 ${before}`);
        await until('a new main process', 300_000, async () => {
          const p = await mainPid();
          return p !== before && p > 0 ? p : undefined;
        });
        assert.equal(await restarts(), 1);
        await until('the service answering again', 900_000, async () => (await json('/status')) !== undefined);
        assert.match(
          (await m.sh('journalctl -u mlds -o cat --no-pager | tail -n 40')).out,
          /Main process exited, code=killed, status=9\/KILL/,
        );
        step('kill -9 to answering again');
      });

      await t.test('a stalled frame loop: WATCHDOG=1 withheld, systemd restarts the service', async () => {
        await until('the replay', (INFO_S + 300) * 1000, async () => (await showing()) === 'content');
        const before = await mainPid();
        await m.sh(`kill -USR2 ${before}`);
        await until('a new main process', 300_000, async () => {
          const p = await mainPid();
          return p !== before && p > 0 ? p : undefined;
        });
        assert.equal(await restarts(), 2);
        assert.match(
          (await m.sh('journalctl -u mlds -o cat --no-pager | tail -n 80')).out,
          /Watchdog timeout \(limit 30s\)!/,
        );
        await until('the replay again', (INFO_S + 600) * 1000, async () => (await showing()) === 'content');
        await panelShows('content', 120_000);
        keep('5-after-watchdog');
        step('watchdog restart to the replay');
      });

      await m.sh('systemctl poweroff --no-block');
      const code = await Promise.race([m.exited, new Promise((r) => setTimeout(() => r('timeout'), 300_000).unref())]);
      assert.equal(code, 0, 'the guest powered off');
      step('power off');
      console.log(`# whole run ${stamp()}`);
    } finally {
      vm?.kill();
      if (!process.env.MLDS_VM_KEEP) rmSync(work, { recursive: true, force: true });
    }
  },
);
