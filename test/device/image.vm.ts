// `make test-image` (not `make test`: many minutes under TCG). build/mlds-arm64.img boots under
// qemu-system-aarch64 -M virt -cpu cortex-a53 with the kernel and initrd taken out of the image,
// virtio-gpu (DRM fbdev emulation gives /dev/fb0) and user-mode networking with the service's port
// forwarded here. A copy of the image gets only what the test needs, written with debugfs: a
// small panel's configuration for /dev/fb0, the MLDS_TEST_HOOKS=1 drop-in (SIGUSR2 stops the
// frame loops) and a shell on a virtio serial port. Through QEMU's screendumps and HTTP, in order:
// the info screen with the guest's address after boot, /mlds changing the panel, `systemctl
// restart` blanking, showing the info screen and replaying, kill -9 and a stalled frame loop (the
// watchdog) each restarted by systemd. Each step's time is printed.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { REPO } from '../helpers/service.js';
import { start, type Machine } from './vm/machine.js';
import { dumper, panelConfig, PANEL, pixelAt, probes, until } from './vm/screens.js';

const IMAGE = process.env.MLDS_IMAGE ?? join(REPO, 'build', 'mlds-arm64.img');
const CACHE = join(REPO, '.vm');
const SCREENS = join(CACHE, 'image-screens');
const QEMU = 'qemu-system-aarch64';
const GUEST_IP = '10.0.2.15';
const W = PANEL.width;
// Long enough to screendump the info screen under TCG, where a frame takes a while.
const INFO_S = 45;
const REQUEST = 'id=main&layout=l&line=7&dest=Depot';

const CONFIG = panelConfig(INFO_S, 'Image test LCD');
const at = (px: Buffer, x: number, y: number) => pixelAt(px, W, x, y);

const AGENT_UNIT = `[Unit]
Description=mlds image test: a shell on the virtio port mlds.agent
DefaultDependencies=no
After=systemd-udevd.service

[Service]
ExecStart=/bin/sh /usr/local/sbin/mlds-test-agent
Restart=always

[Install]
WantedBy=multi-user.target
`;

// A virtio port may be open once: one descriptor for both directions.
const AGENT_SCRIPT = `P=/dev/virtio-ports/mlds.agent
while [ ! -e $P ]; do sleep 0.5; done
exec 3<>$P
exec <&3 >&3 2>&3
echo __AGENT_READY__
while IFS= read -r line; do
  out=$(sh -c "$line" 2>&1); rc=$?
  printf '%s\\n__AGENT_END__ %s\\n' "$out" "$rc"
done
`;

function why(): string | undefined {
  if (spawnSync(QEMU, ['--version']).error) return `${QEMU} is not installed (Debian package qemu-system-arm; make test-image installs it)`;
  if (spawnSync('debugfs', ['-V']).error) return 'debugfs is not installed (Debian package e2fsprogs)';
  if (!existsSync(IMAGE)) return `${IMAGE} is missing (make image-arm64)`;
  return undefined;
}
const skip = why();
if (skip) console.log(`# image test skipped: ${skip}`);

const debugfs = (disk: string, cmds: string[], write = false) =>
  execFileSync('debugfs', [...(write ? ['-w'] : []), '-f', '-', disk], { input: cmds.join('\n') + '\n', encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });

/** The image's kernel and initrd, and the test's additions written into the copy. */
function prepare(work: string): { kernel: string; initrd: string; disk: string } {
  const disk = join(work, 'disk.img');
  execFileSync('cp', ['--sparse=always', IMAGE, disk]);
  const boot = debugfs(disk, ['ls -p /boot']);
  const name = (re: RegExp) => { const m = boot.split('\n').map((l) => l.split('/')[5]).find((n) => n && re.test(n)); assert.ok(m, `${re} in /boot:\n${boot}`); return m; };
  const kernel = join(work, 'vmlinuz'), initrd = join(work, 'initrd.img');
  debugfs(disk, [`dump /boot/${name(/^vmlinuz-/)} ${kernel}`, `dump /boot/${name(/^initrd\.img-/)} ${initrd}`]);
  // Debian's arm64 vmlinuz is a gzipped Image; QEMU is given it unpacked.
  const k = readFileSync(kernel);
  if (k[0] === 0x1f && k[1] === 0x8b) writeFileSync(kernel, gunzipSync(k));
  const f = (n: string, text: string) => { writeFileSync(join(work, n), text); return join(work, n); };
  debugfs(disk, [
    'mkdir /etc/systemd/system/mlds.service.d',
    `write ${f('test.conf', '[Service]\nEnvironment=MLDS_TEST_HOOKS=1\n')} /etc/systemd/system/mlds.service.d/test.conf`,
    `write ${f('agent.service', AGENT_UNIT)} /etc/systemd/system/mlds-test-agent.service`,
    `write ${f('agent.sh', AGENT_SCRIPT)} /usr/local/sbin/mlds-test-agent`,
    'symlink /etc/systemd/system/multi-user.target.wants/mlds-test-agent.service /etc/systemd/system/mlds-test-agent.service',
    'rm /etc/mlds/config.json',
    `write ${f('config.json', JSON.stringify(CONFIG, null, 1))} /etc/mlds/config.json`,
  ], true);
  assert.match(debugfs(disk, ['cat /etc/mlds/config.json']), /Image test LCD/);
  return { kernel, initrd, disk };
}

test('the arm64 image boots to the info screen; /mlds, restart, kill -9 and the watchdog on the panel', { skip, timeout: 3_600_000 }, async (t) => {
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(CACHE, 'image-test-'));
  let vm: Machine | undefined;
  const t0 = Date.now();
  let lap = t0;
  const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const step = (name: string) => { console.log(`# step "${name}": ${((Date.now() - lap) / 1000).toFixed(1)} s (at ${stamp()})`); lap = Date.now(); };
  try {
    const { kernel, initrd, disk } = prepare(work);
    step('copy the image, take out the kernel and initrd, add the test files');
    vm = await start({
      kernel, initrd, outDir: work, work, guestIp: GUEST_IP, guestPort: 9199, cmdline: '',
      onLine: (l) => { if (process.env.MLDS_VM_VERBOSE || /mlds|Watchdog|FAILED|emergency|Kernel panic|Reached target/i.test(l)) console.log(`# guest ${stamp()}: ${l}`); },
      qemu: ({ agentSock, monSock, port }) => ({
        bin: QEMU,
        args: ['-M', 'virt', '-cpu', 'cortex-a53', '-smp', '2', '-m', '1536', '-accel', 'tcg',
          '-display', 'none', '-no-reboot',
          '-kernel', kernel, '-initrd', initrd,
          '-append', 'root=LABEL=mlds-root rw console=ttyAMA0 panic=-1 loglevel=3 systemd.show_status=1 systemd.log_color=0',
          '-drive', `file=${disk},format=raw,if=virtio`,
          '-device', 'virtio-gpu-pci',
          '-nic', `user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:${port}-:9199`,
          '-device', 'virtio-serial-pci',
          '-chardev', `socket,id=agent,path=${agentSock},server=on,wait=off`,
          '-device', 'virtserialport,chardev=agent,name=mlds.agent',
          '-serial', 'stdio', '-monitor', `unix:${monSock},server=on,wait=off`],
      }),
    });
    const m = vm;
    const base = `http://127.0.0.1:${m.port}`;
    const { dump, keep, panelShows, watch } = dumper(m, work, SCREENS);
    const { json, shot, showing, mainPid, restarts } = probes(m);

    await t.test('boot: READY=1 and the info screen with the guest\'s address on the panel', async () => {
      // sh() gives up on the shell after 5 minutes; a slow boot just asks again.
      await until('the shell on the virtio port', 1_200_000, async () => (await m.sh('true').catch(() => undefined))?.code === 0);
      step('kernel, initrd and systemd up to the test shell');
      await until('mlds.service active', 900_000, async () => /^active$/.test((await m.sh('systemctl is-active mlds')).out.trim()) || undefined);
      step('mlds.service READY=1 (systemctl is-active)');
      const st = await m.sh('systemctl show -p StatusText -p User -p Type -p WatchdogUSec -p ExecMainStartTimestamp mlds; uname -m; cat /sys/class/graphics/fb0/virtual_size; cat /sys/class/graphics/fb0/name');
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
      assert.deepEqual(ip.map((a) => [a.interface, a.address]), [['eth0', GUEST_IP]], 'the DHCP address (systemd-networkd) the info screen lists');
      step('info screen checked');
    });

    await t.test('/mlds through the forwarded port changes the panel', async () => {
      const r = await fetch(`${base}/mlds?${REQUEST}`);
      assert.equal(r.status, 200, await r.text());
      await until('the displays after the info screen', (INFO_S + 120) * 1000, async () => (await showing()) === 'content');
      const d = await panelShows('content', 120_000);
      keep('2-request');
      assert.deepEqual(at(d.pixels, 2, 2), [255, 170, 0], 'the line area\'s background');
      assert.deepEqual(at(d.pixels, 318, 2), [0, 0, 64], 'the destination area\'s background');
      assert.deepEqual(d.pixels, await shot(), 'the panel shows exactly the service\'s frame');
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
      assert.deepEqual(seen.slice(firstBlack).filter((k) => k !== 'black'), ['other', 'content'], 'then the info screen, then the replay');
      assert.equal((await json('/status'))?.displays?.[0]?.lastCommand?.source, 'replay');
      step('systemctl restart to the replay');
    });

    await t.test('kill -9: systemd restarts the service', async () => {
      const before = await mainPid();
      await m.sh(`kill -9 ${before}`);
      await until('a new main process', 300_000, async () => { const p = await mainPid(); return p !== before && p > 0 ? p : undefined; });
      assert.equal(await restarts(), 1);
      await until('the service answering again', 900_000, async () => (await json('/status')) !== undefined);
      assert.match((await m.sh('journalctl -u mlds -o cat --no-pager | tail -n 40')).out, /Main process exited, code=killed, status=9\/KILL/);
      step('kill -9 to answering again');
    });

    await t.test('a stalled frame loop: WATCHDOG=1 withheld, systemd restarts the service', async () => {
      await until('the replay', (INFO_S + 300) * 1000, async () => (await showing()) === 'content');
      const before = await mainPid();
      await m.sh(`kill -USR2 ${before}`);
      await until('a new main process', 300_000, async () => { const p = await mainPid(); return p !== before && p > 0 ? p : undefined; });
      assert.equal(await restarts(), 2);
      assert.match((await m.sh('journalctl -u mlds -o cat --no-pager | tail -n 80')).out, /Watchdog timeout \(limit 30s\)!/);
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
});
