// A real kernel framebuffer: Debian's kernel boots under QEMU with -vga std and the bochs DRM
// driver, the host filesystem is shared read-only over 9p, and the built service code writes
// /dev/fb0 inside the guest. QEMU's screendump of what the emulated card shows is compared
// pixel by pixel with the frame that was written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadImage, createCanvas } from 'canvas';
import { ensureKernel, loadOrder, type Kernel } from './vm/kernel.js';
import { busyboxInitramfs } from './vm/cpio.js';
import { initScript } from './vm/init.js';
import { boot, qemuUnavailable, type Guest } from './vm/qemu.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { skipReason } from '../helpers/skip.js';
import { panelConfig } from '../device/vm/screens.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, '.vm');
const FB_W = 1280,
  FB_H = 800;
const MODULES = ['bochs', 'virtio_pci', '9pnet_virtio', '9p'];

function why(): string | undefined {
  const q = qemuUnavailable();
  if (q) return q;
  const n = nativeHelperProblem();
  if (n) return n;
  if (!existsSync(join(ROOT, 'dist', 'output', 'fbdev.js'))) return 'dist/ is not built (make build)';
  return undefined;
}

let kernel: Kernel | undefined;
let kernelProblem: string | undefined;
const reason = why();
if (!reason) {
  try {
    kernel = ensureKernel(CACHE);
  } catch (err) {
    kernelProblem = `cannot get Debian's kernel: ${(err as Error).message.split('\n')[0]}`;
  }
}
// The VM packages are installed only when possible (Makefile, VM_APT_PKGS): like hardware.
const skip = skipReason(reason ?? kernelProblem, 'hardware');
if (skip) console.log(`# fbdev VM test skipped: ${skip}`);

function initramfs(k: Kernel, path: string): void {
  const order = loadOrder(k, MODULES);
  writeFileSync(
    path,
    busyboxInitramfs(
      initScript(order, { drm_kms_helper: process.env.MLDS_VM_KMS ?? '' }),
      order.map((m): [string, string] => [m, k.modules.get(m)!]),
    ),
  );
}

async function rgbaOfPng(path: string): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const img = await loadImage(readFileSync(path));
  const c = createCanvas(img.width, img.height),
    ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

/** Compares the screendump with `frame` at the top-left and black elsewhere; returns mismatches. */
function compare(
  dump: { width: number; height: number; data: Uint8ClampedArray },
  frame: Uint8Array,
  w: number,
  h: number,
): string[] {
  const bad: string[] = [];
  for (let y = 0; y < dump.height && bad.length < 10; y++) {
    for (let x = 0; x < dump.width && bad.length < 10; x++) {
      const d = (y * dump.width + x) * 4,
        inside = x < w && y < h,
        f = (y * w + x) * 4;
      const want = inside ? [frame[f], frame[f + 1], frame[f + 2]] : [0, 0, 0];
      const got = [dump.data[d], dump.data[d + 1], dump.data[d + 2]];
      if (want.some((v, i) => v !== got[i])) bad.push(`(${x},${y}) want ${want} got ${got}`);
    }
  }
  return bad;
}

const SERVICE_CONFIG = panelConfig(0, 'VM framebuffer', false);

const noService = skipReason(existsSync(join(ROOT, 'dist', 'cli.js')) ? undefined : 'dist/cli.js is not built');

test('a real kernel framebuffer under QEMU (bochs-drm)', { skip, timeout: 240_000 }, async (t) => {
  const work = mkdtempSync(join(CACHE, 'run-'));
  const out = join(work, 'out');
  mkdirSync(join(out, 'svc'), { recursive: true });
  let guest: Guest | undefined;
  const w = 640,
    h = 400;
  try {
    initramfs(kernel!, join(work, 'initramfs.cpio'));
    writeFileSync(join(out, 'svc', 'config.json'), JSON.stringify(SERVICE_CONFIG, null, 2));
    writeFileSync(
      join(out, 'run.sh'),
      [
        `cd ${ROOT}`,
        `node test/output/fixtures/vm-fb-writer.mjs /mnt ${w} ${h} || echo MLDS-A-FAILED`,
        noService
          ? 'echo MLDS-B-SKIPPED'
          : 'node test/output/fixtures/vm-drive-service.mjs /mnt 9199 || echo MLDS-B-FAILED',
      ].join('\n') + '\n',
    );
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
    const g = guest;
    const ready = await g.waitFor(/MLDS-GUEST-READY fb=(\d+),(\d+) bpp=(\d+)/, 60_000);
    assert.deepEqual([Number(ready[1]), Number(ready[3])], [FB_W, 32], 'bochs-drm gives a 1280-wide 32 bpp /dev/fb0');

    await t.test('the fbdev output writes a known frame: the screendump equals it pixel for pixel', async () => {
      await g.waitFor(/MLDS-DUMP a|MLDS-A-FAILED/, 60_000);
      assert.ok(
        !g.lines.some((l) => l.includes('MLDS-A-FAILED')),
        `the fbdev writer failed in the guest:\n${g.lines.slice(-15).join('\n')}`,
      );
      await g.monitor(`screendump ${join(work, 'a.png')} -f png`);
      writeFileSync(join(out, 'dumped-a'), '');
      const described = JSON.parse(readFileSync(join(out, 'fb-a.json'), 'utf8'));
      assert.equal(described.format, 'XRGB8888');
      assert.equal(described.geometry, 'ioctl', 'geometry came from FBIOGET_VSCREENINFO / FBIOGET_FSCREENINFO');
      assert.deepEqual(described.probe, { width: FB_W, height: FB_H, format: 'XRGB8888' });
      assert.equal(described.vsync, true, 'bochs-drm answers FBIO_WAITFORVSYNC, so the wait ran on a real driver');
      const dump = await rgbaOfPng(join(work, 'a.png'));
      assert.deepEqual([dump.width, dump.height], [FB_W, FB_H]);
      assert.deepEqual(
        compare(dump, readFileSync(join(out, 'frame-a.rgba')), w, h),
        [],
        'every pixel of the screendump equals the frame (top-left) or black',
      );
    });

    await t.test(
      'the service drives /dev/fb0: screendump equals its own PNG screenshot',
      { skip: noService },
      async () => {
        const m = await g.waitFor(/MLDS-DUMP b|MLDS-B-FAILED/, 150_000);
        assert.equal(m[0], 'MLDS-DUMP b', `the service ran in the guest (see ${join(out, 'service.log')})`);
        await g.monitor(`screendump ${join(work, 'b.png')} -f png`);
        writeFileSync(join(out, 'dumped-b'), '');
        await g.waitFor(/MLDS-B done|MLDS-B-FAILED/, 30_000);
        const shot = await rgbaOfPng(join(out, 'shot-b.png'));
        const again = await rgbaOfPng(join(out, 'shot-b2.png'));
        assert.deepEqual([shot.width, shot.height], [320, 96]);
        assert.ok(
          Buffer.from(shot.data).equals(Buffer.from(again.data)),
          'the picture was still while the screendump was taken',
        );
        assert.ok(
          shot.data.some((v, i) => i % 4 === 0 && v === 255),
          'the screenshot shows the layout, not a black screen',
        );
        const dump = await rgbaOfPng(join(work, 'b.png'));
        // Black outside the display also proves open() cleared the writer's larger picture.
        assert.deepEqual(
          compare(dump, new Uint8Array(shot.data.buffer), shot.width, shot.height),
          [],
          'the panel shows exactly the frame of the service at the top-left and black elsewhere',
        );
        const status = JSON.parse(readFileSync(join(out, 'status-b.json'), 'utf8'));
        const output = status.displays[0].output;
        assert.equal(output.driver, 'fbdev');
        assert.equal(output.open, true);
        assert.equal(output.lastResult, 'ok');
        assert.equal(output.details.format, 'XRGB8888');
        assert.ok(output.framesSent >= 2, 'the black start frame and the frame of the command');
      },
    );

    const code = await Promise.race([g.exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000).unref())]);
    assert.equal(code, 0, 'the guest powered off cleanly');
  } finally {
    guest?.kill();
    if (!process.env.MLDS_VM_KEEP) rmSync(work, { recursive: true, force: true });
  }
});
