// `make test-vm` (not `make test`: a few minutes under TCG). Debian's kernel boots the host's
// own root (read-only over 9p, a tmpfs laid over it, the guest's own /tmp and /var/tmp) with
// the host's systemd as init, and systemd runs systemd/mlds.service exactly as the repository
// has it (its drop-in only adds MLDS_TEST_HOOKS=1) on a real kernel framebuffer. After a check
// of the guest's own /tmp, QEMU's screendumps show the panel at each step: the info screen, then
// the replayed request; `systemctl restart` blanks and replays; `kill -9` and a frame loop
// stopped on purpose are each followed by a restart by systemd.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { busyboxInitramfs } from '../output/vm/cpio.js';
import { ensureKernel, loadOrder, type Kernel } from '../output/vm/kernel.js';
import { qemuUnavailable } from '../output/vm/qemu.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { REPO } from '../helpers/service.js';
import { AGENT, AGENT_SCRIPT, DROP_IN, GUEST_TMP, initScript, prepareScript, TARGET } from './vm/guest.js';
import { start, type Machine } from './vm/machine.js';
import { dumper, panelConfig, PANEL, pixelAt, probes, until } from './vm/screens.js';

const CACHE = join(REPO, '.vm');
/** The screendump of each step is kept here (the run's folder is removed). */
const SCREENS = join(CACHE, 'systemd-boot-screens');
const GUEST_IP = '10.0.2.15';
const W = PANEL.width;
const MODULES = ['bochs', 'virtio_pci', '9pnet_virtio', '9p', 'overlay', 'virtio_net'];
const INFO_S = 20;
const SAVED = 'id=main&layout=l&line=7&dest=Depot';

const CONFIG = panelConfig(INFO_S, 'VM framebuffer');

function why(): string | undefined {
  const q = qemuUnavailable();
  if (q) return q;
  if (!existsSync('/lib/systemd/systemd'))
    return 'systemd is not installed on this machine (its /lib/systemd/systemd boots the guest)';
  const n = nativeHelperProblem();
  if (n) return n;
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) return 'dist/ is not built (make build)';
  return undefined;
}

let kernel: Kernel | undefined;
let skip = why();
if (!skip) {
  try {
    kernel = ensureKernel(CACHE);
  } catch (err) {
    skip = `cannot get Debian's kernel: ${(err as Error).message.split('\n')[0]}`;
  }
}
if (skip) console.log(`# systemd boot VM test skipped: ${skip}`);

function initramfs(k: Kernel, path: string): void {
  const order = loadOrder(k, MODULES);
  writeFileSync(
    path,
    busyboxInitramfs(
      initScript(order, GUEST_IP, REPO),
      order.map((m): [string, string] => [m, k.modules.get(m)!]),
    ),
  );
}

const at = (px: Buffer, x: number, y: number) => pixelAt(px, W, x, y);

/** From the guest's own clock: how long systemd-tmpfiles-setup ran, and when mlds sent READY=1 (Type=notify). */
async function bootTimes(m: Machine): Promise<string> {
  const show = async (unit: string, props: string[]) => {
    const r = await m.sh(`systemctl show ${props.map((p) => `-p ${p}`).join(' ')} ${unit}`);
    return Object.fromEntries(
      r.out
        .split('\n')
        .map((l) => l.split('='))
        .map(([k, v]) => [k, Number(v) / 1e6]),
    );
  };
  const tf = await show('systemd-tmpfiles-setup', [
    'ExecMainStartTimestampMonotonic',
    'ExecMainExitTimestampMonotonic',
  ]);
  const ran = tf.ExecMainExitTimestampMonotonic - tf.ExecMainStartTimestampMonotonic;
  const mlds = await show('mlds', ['ActiveEnterTimestampMonotonic']);
  return (
    `systemd-tmpfiles-setup ran ${ran.toFixed(1)} s; ` +
    `mlds READY ${mlds.ActiveEnterTimestampMonotonic.toFixed(1)} s after the kernel started`
  );
}

test(
  'systemd boots the unit: info screen, replay, restart, kill -9, watchdog',
  { skip, timeout: 900_000 },
  async (t) => {
    mkdirSync(CACHE, { recursive: true });
    const work = mkdtempSync(join(CACHE, 'systemd-'));
    const out = join(work, 'out');
    mkdirSync(out);
    let vm: Machine | undefined;
    const t0 = Date.now();
    const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
    try {
      initramfs(kernel!, join(work, 'initramfs.cpio'));
      writeFileSync(join(out, 'prepare.sh'), prepareScript());
      writeFileSync(join(out, 'config.json'), JSON.stringify(CONFIG, null, 1));
      writeFileSync(
        join(out, 'state.json'),
        JSON.stringify({ lastRequest: { main: { query: SAVED, at: 0, source: 'http' } }, lastFeedback: {} }),
      );
      writeFileSync(join(out, 'mlds.service'), readFileSync(join(REPO, 'systemd', 'mlds.service')));
      writeFileSync(join(out, 'test.conf'), DROP_IN);
      writeFileSync(join(out, 'mlds-vm.target'), TARGET);
      writeFileSync(join(out, 'mlds-vm-agent.service'), AGENT);
      writeFileSync(join(out, 'agent.sh'), AGENT_SCRIPT);
      vm = await start({
        kernel: kernel!.vmlinuz,
        initrd: join(work, 'initramfs.cpio'),
        outDir: out,
        work,
        guestIp: GUEST_IP,
        guestPort: 9199,
        cmdline: 'systemd.unit=mlds-vm.target systemd.show_status=1 systemd.log_color=0',
        onLine: (l) => {
          if (process.env.MLDS_VM_VERBOSE || /MLDS|mlds|Watchdog|FAILED|emergency/i.test(l))
            console.log(`# guest ${stamp()}: ${l}`);
        },
      });
      const m = vm;
      const { dump, keep, panelShows, watch } = dumper(m, work, SCREENS);
      const { json, shot, showing, mainPid, restarts } = probes(m);

      await m.waitFor(/MLDS-GUEST-SWITCH/, 120_000);
      assert.ok(!m.lines.some((l) => /MLDS-GUEST (overlay|prepare|mount|tmpfs) .*failed/.test(l)), m.lines.join('\n'));

      await t.test("the guest has its own /tmp and /var/tmp: its boot does not walk the host's", async () => {
        for (const d of GUEST_TMP) {
          const on = await m.sh(`findmnt -n -o TARGET,FSTYPE --target ${d}`);
          assert.deepEqual(
            on.out.trim().split(/\s+/),
            [d, 'tmpfs'],
            `${d} is a tmpfs of the guest's, not the host's folder under the overlay`,
          );
        }
      });

      await t.test('systemd starts the unit; READY=1 comes with the info screen on the panel', async () => {
        await m.waitFor(/Started mlds\.service/, 300_000);
        const st = await m.sh(
          'systemctl show -p ActiveState -p SubState -p StatusText -p User -p Type -p WatchdogUSec mlds',
        );
        console.log(`# ${stamp()} ${st.out.replace(/\n/g, ' | ')}`);
        assert.match(st.out, /ActiveState=active/);
        assert.match(st.out, /Type=notify/);
        assert.match(st.out, /WatchdogUSec=30s/);
        assert.match(st.out, /StatusText=(boot screens: info screen on unit \S+ until|ready)/);
        const ps = await m.sh('ps -o user=,comm= -p $(systemctl show -p MainPID --value mlds)');
        assert.match(ps.out, /^mlds\s+node/m, 'runs as its own user');
        assert.equal(await showing(), 'info', `the info screen shows for ${INFO_S} s after READY=1`);
        const d = await dump();
        keep('1-info-screen');
        assert.ok(d.blackOutside);
        assert.deepEqual(d.pixels, await shot(), "the panel shows exactly the service's frame");
        assert.ok(
          d.pixels.some((v) => v > 0),
          'the info screen is not black',
        );
        const ip = (await json('/status'))?.identity?.addresses as Array<{ interface: string; address: string }>;
        assert.deepEqual(
          ip.map((a) => [a.interface, a.address]),
          [['eth0', GUEST_IP]],
          'the address the info screen lists',
        );
        // The unit's ExecStart is the launcher: the bundle, its code cache in the unit's CacheDirectory=.
        const cc = (await json('/status'))?.codeCache as { bundle?: boolean; dir?: string } | undefined;
        assert.deepEqual([cc?.bundle, cc?.dir], [true, '/var/cache/mlds']);
        // After the checks of the info screen's 20 s: two more commands over the serial line take a while under TCG.
        console.log(`# ${stamp()} ${await bootTimes(m)}`);
      });

      await t.test('then the replayed request', async () => {
        await until('the displays after the info screen', 120_000, async () => (await showing()) === 'content');
        const d = await panelShows('content', 60_000);
        keep('2-replayed');
        assert.deepEqual(d.pixels, await shot());
        assert.deepEqual(at(d.pixels, 2, 2), [255, 170, 0], "the line area's background of the saved request");
        assert.deepEqual(at(d.pixels, 318, 2), [0, 0, 64], "the destination area's background");
        assert.equal((await json('/status'))?.displays?.[0]?.lastCommand?.source, 'replay');
        // STATUS= follows within its 5 s refresh.
        await until(
          'STATUS=ready',
          60_000,
          async () =>
            /^ready: 1 display\(s\) on 1 unit\(s\), HTTP on port 9199$/.test(
              (await m.sh('systemctl show -p StatusText --value mlds')).out.trim(),
            ) || undefined,
        );
      });

      await t.test('systemctl restart: a new process blanks the panel, shows the info screen, replays', async () => {
        const before = await mainPid();
        await until(
          'the first process to write its code cache',
          120_000,
          async () => (await json('/status'))?.codeCache?.written || undefined,
        );
        const { seen, stop } = watch('3-restart');
        const r = await m.sh('systemctl restart mlds', 300_000);
        assert.equal(r.code, 0, r.out);
        const after = await mainPid();
        assert.notEqual(after, before);
        await until('the info screen of the new process', 60_000, async () => (await showing()) === 'info');
        await until('the replay after it', 120_000, async () => (await showing()) === 'content');
        await until('the panel showing the replay', 60_000, async () => seen.at(-1) === 'content' || undefined);
        await stop();
        console.log(`# ${stamp()} panel during restart: ${seen.join(' -> ')}`);
        const firstBlack = seen.indexOf('black');
        assert.ok(firstBlack > 0, `the panel went black after the content (${seen.join(' -> ')})`);
        assert.deepEqual(
          seen.slice(firstBlack).filter((k) => k !== 'black'),
          ['other', 'content'],
          'then the info screen, then the replay',
        );
        assert.equal(await restarts(), 0, 'a restart asked for is not counted as a failure');
        assert.equal(
          (await json('/status'))?.codeCache?.state,
          'used',
          'the new process compiled from the cache the first one wrote',
        );
      });

      await t.test('kill -9: systemd restarts the service', async () => {
        const before = await mainPid();
        await m.sh(`kill -9 ${before}`);
        await until('a new main process', 120_000, async () => {
          const p = await mainPid();
          return p !== before && p > 0 ? p : undefined;
        });
        assert.equal(await restarts(), 1);
        await until('the service answering again', 300_000, async () => (await json('/status')) !== undefined);
        const j = await m.sh('journalctl -u mlds -o cat --no-pager | tail -n 40');
        assert.match(j.out, /Main process exited, code=killed, status=9\/KILL/);
      });

      await t.test('a frame loop stopped on purpose: WATCHDOG=1 withheld, systemd restarts the service', async () => {
        await until('the displays again', 120_000, async () => (await showing()) === 'content');
        const before = await mainPid();
        await m.sh(`kill -USR2 ${before}`);
        await until(
          'STATUS saying the watchdog is withheld',
          60_000,
          async () =>
            /watchdog withheld: frame loop of unit \S+: stopped/.test(
              (await m.sh('systemctl show -p StatusText --value mlds')).out,
            ) || undefined,
        );
        await until('a new main process', 180_000, async () => {
          const p = await mainPid();
          return p !== before && p > 0 ? p : undefined;
        });
        assert.equal(await restarts(), 2);
        const j = await m.sh('journalctl -u mlds -o cat --no-pager | tail -n 60');
        assert.match(j.out, /Watchdog timeout \(limit 30s\)!/);
        await until('the replay again', 300_000, async () => (await showing()) === 'content');
        await panelShows('content', 60_000);
        keep('5-after-watchdog-restart');
      });

      await m.sh('systemctl poweroff --no-block');
      const code = await Promise.race([m.exited, new Promise((r) => setTimeout(() => r('timeout'), 120_000).unref())]);
      assert.equal(code, 0, 'the guest powered off');
      console.log(`# whole run ${stamp()}`);
    } finally {
      vm?.kill();
      if (!process.env.MLDS_VM_KEEP) rmSync(work, { recursive: true, force: true });
    }
  },
);
