// A readout asked for by a GPIO line of a real kernel: Debian's kernel boots under QEMU with the
// kernel's GPIO simulator (gpio-sim, made a chip through configfs), the host's filesystem over
// 9p, and the built service, whose display's readout input is the chip's line 0, watched by
// Debian's gpiomon as on a unit. The guest presses the line by writing its simulated pull; the
// readouts reach the WAV sink and are checked here by their length against espeak-ng alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureKernel, loadOrder, type Kernel } from '../output/vm/kernel.js';
import { ensureGpioSim } from '../output/vm/gpio-sim.js';
import { busyboxInitramfs } from '../output/vm/cpio.js';
import { initScript } from '../output/vm/init.js';
import { boot, qemuUnavailable, type Guest } from '../output/vm/qemu.js';
import { skipReason } from '../helpers/skip.js';
import { espeakAlone, readWav, rms, speechConfig } from './audio.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, '.vm');
const MODULES = ['virtio_pci', '9pnet_virtio', '9p', 'configfs'];
/** The chip's label, set through configfs: gpiomon finds the chip by it, whatever its number. */
const LABEL = 'mlds-button';
const DEBOUNCE_MS = 3000;

function why(): string | undefined {
  const q = qemuUnavailable();
  if (q) return q;
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) return 'dist/ is not built (make build)';
  return undefined;
}

let kernel: Kernel | undefined;
let gpioSim: string | undefined;
let kernelProblem: string | undefined;
const reason = why();
if (!reason) {
  try {
    kernel = ensureKernel(CACHE);
    gpioSim = ensureGpioSim(CACHE, kernel);
  } catch (err) {
    kernelProblem = `cannot get Debian's kernel or build gpio-sim for it: ${(err as Error).message.split('\n')[0]}`;
  }
}
// The VM packages are installed only when possible (Makefile, VM_APT_PKGS): like hardware.
const skip = skipReason(reason ?? kernelProblem, 'hardware');
if (skip) console.log(`# GPIO readout VM test skipped: ${skip}`);

function initramfs(k: Kernel, path: string): void {
  const order = loadOrder(k, MODULES);
  writeFileSync(
    path,
    busyboxInitramfs(initScript([...order, 'gpio_sim'], {}, false), [
      ...order.map((m): [string, string] => [m, k.modules.get(m)!]),
      ['gpio_sim', gpioSim!],
    ]),
  );
}

/** The guest's script: a gpio-sim chip of four lines, line 0 pulled up (a released button), then the service. */
const RUN = `cd ${ROOT}
mount -t configfs none /sys/kernel/config || echo "MLDS-GPIO-FAILED configfs"
mount -t debugfs none /sys/kernel/debug
S=/sys/kernel/config/gpio-sim/mlds
mkdir $S $S/bank0 && echo ${LABEL} > $S/bank0/label && echo 4 > $S/bank0/num_lines && echo 1 > $S/live \\
  || echo "MLDS-GPIO-FAILED gpio-sim chip"
chip=$(cat $S/bank0/chip_name); dev=$(cat $S/dev_name)
echo "MLDS-GPIO chip=$chip dev=$dev"
pull=/sys/devices/platform/$dev/$chip/sim_gpio0/pull
echo pull-up > $pull
# The host's / is read-only here, and sox makes its temporary files in /tmp whatever TMPDIR says: a
# tmpfs over /tmp, with the checkout put back in place when it lives under the host's /tmp.
mkdir -p /mnt/host-tmp && mount --bind /tmp /mnt/host-tmp && mount -t tmpfs tmpfs /tmp
${ROOT.startsWith('/tmp/') ? `mkdir -p ${ROOT} && mount --bind /mnt/host-tmp/${ROOT.slice(5)} ${ROOT} && cd ${ROOT}\n` : ''}node test/speech/fixtures/vm-gpio-readout.mjs /mnt 9199 $pull ${DEBOUNCE_MS} || echo "MLDS-GPIO-FAILED"
`;

type Last = { text: string; source: string; display: string; latencyMs: number; seconds: number };
interface Result {
  pressToWav: number;
  pressToWav3: number;
  bounceGapMs: number;
  one: Last;
  last: Last;
  counts: Record<string, number>;
}

test(
  'a GPIO line of the kernel (gpio-sim) asks for a readout, debounced, under QEMU',
  { skip, timeout: 600_000 },
  async () => {
    const work = mkdtempSync(join(CACHE, 'run-'));
    const out = join(work, 'out');
    mkdirSync(join(out, 'svc'), { recursive: true });
    mkdirSync(join(out, 'wav'));
    let guest: Guest | undefined;
    try {
      initramfs(kernel!, join(work, 'initramfs.cpio'));
      const cfg = speechConfig();
      cfg.displays.hall.layout.board.line.speak = false;
      cfg.displays.hall.readout = {
        inputs: [{ type: 'gpio', chip: LABEL, line: '0', edge: 'falling', debounceMs: String(DEBOUNCE_MS) }],
      };
      writeFileSync(join(out, 'svc', 'config.json'), JSON.stringify(cfg, null, 2));
      writeFileSync(join(out, 'run.sh'), RUN);
      const started = Date.now();
      guest = boot({
        kernel: kernel!.vmlinuz,
        initrd: join(work, 'initramfs.cpio'),
        outDir: out,
        monitorSocket: join(work, 'monitor.sock'),
        cmdline: process.env.MLDS_VM_CMDLINE,
        onLine: (l) => {
          if (process.env.MLDS_VM_VERBOSE || /MLDS/.test(l))
            console.log(`# guest ${((Date.now() - started) / 1000).toFixed(1)}s: ${l}`);
        },
      });
      const m = await guest.waitFor(/MLDS-GPIO done|MLDS-GPIO-FAILED.*/, 480_000);
      const log = join(out, 'service.log');
      assert.equal(m[0], 'MLDS-GPIO done', `${m[0]}\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : ''}`);
      const r = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as Result;

      assert.deepEqual([r.one.source, r.one.display], ['readout', 'hall']);
      assert.equal(r.one.text, 'Line 7 to Airport, platform 2.');
      const wavs = readdirSync(join(out, 'wav')).filter((f) => f.endsWith('.wav') && !f.startsWith('.'));
      assert.deepEqual(wavs.sort(), ['hall.announce.1.wav', 'hall.announce.2.wav', 'hall.announce.3.wav']);
      const alone = espeakAlone(r.one.text);
      for (const f of wavs) {
        const { info, samples } = readWav(join(out, 'wav', f));
        assert.ok(Math.abs(info.seconds - alone) <= alone * 0.1, `${f}: ${info.seconds} s, espeak-ng alone ${alone} s`);
        assert.ok(rms(samples) > 0.02, `${f} holds speech, not silence`);
      }
      // Three presses, the bounce in the middle one dropped: undebounced it restarts the readout.
      assert.ok(r.bounceGapMs < DEBOUNCE_MS, `the bounce came ${r.bounceGapMs} ms after the press`);
      assert.deepEqual([r.counts.readouts, r.counts.repeated], [3, 0], JSON.stringify(r.counts));
      console.log(
        `# GPIO readout under QEMU/TCG: line toggle to the complete WAV ${r.pressToWav.toFixed(0)} ms and ` +
          `${r.pressToWav3.toFixed(0)} ms; press to first sample (status) ${r.one.latencyMs} ms and ` +
          `${r.last.latencyMs} ms; ${r.one.seconds.toFixed(2)} s of speech; the bounce ${r.bounceGapMs.toFixed(0)} ms ` +
          `after the press`,
      );
      const code = await Promise.race([
        guest.exited,
        new Promise((res) => setTimeout(() => res('timeout'), 30_000).unref()),
      ]);
      assert.equal(code, 0, 'the guest powered off cleanly');
    } finally {
      guest?.kill();
      if (!process.env.MLDS_VM_KEEP) rmSync(work, { recursive: true, force: true });
    }
  },
);
