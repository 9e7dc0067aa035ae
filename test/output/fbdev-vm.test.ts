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
import { cpio, dir, file, symlink } from './vm/cpio.js';
import { initScript } from './vm/init.js';
import { boot, qemuUnavailable, type Guest } from './vm/qemu.js';
import { nativeHelperProblem } from '../../src/output/native.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, '.vm');
const FB_W = 1280, FB_H = 800;
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
  try { kernel = ensureKernel(CACHE); } catch (err) { kernelProblem = `cannot get Debian's kernel: ${(err as Error).message.split('\n')[0]}`; }
}
const skip = reason ?? kernelProblem;
if (skip) console.log(`# fbdev VM test skipped: ${skip}`);

function initramfs(k: Kernel, path: string): void {
  const order = loadOrder(k, MODULES);
  const entries = [dir('bin'), dir('dev'), dir('proc'), dir('sys'), dir('tmp'), dir('modules'),
    file('bin/busybox', readFileSync('/bin/busybox'), 0o755), symlink('bin/sh', 'busybox'),
    file('init', Buffer.from(initScript(order)), 0o755),
    ...order.map((m) => file(`modules/${m}.ko`, readFileSync(k.modules.get(m)!)))];
  writeFileSync(path, cpio(entries));
}

async function rgbaOfPng(path: string): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const img = await loadImage(readFileSync(path));
  const c = createCanvas(img.width, img.height), ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

/** Compares the screendump with `frame` at the top-left and black elsewhere; returns mismatches. */
function compare(dump: { width: number; height: number; data: Uint8ClampedArray }, frame: Uint8Array, w: number, h: number): string[] {
  const bad: string[] = [];
  for (let y = 0; y < dump.height && bad.length < 10; y++) {
    for (let x = 0; x < dump.width && bad.length < 10; x++) {
      const d = (y * dump.width + x) * 4, inside = x < w && y < h, f = (y * w + x) * 4;
      const want = inside ? [frame[f], frame[f + 1], frame[f + 2]] : [0, 0, 0];
      const got = [dump.data[d], dump.data[d + 1], dump.data[d + 2]];
      if (want.some((v, i) => v !== got[i])) bad.push(`(${x},${y}) want ${want} got ${got}`);
    }
  }
  return bad;
}

test('fbdev on a real kernel framebuffer (QEMU, bochs-drm): screendump equals the written frame', { skip, timeout: 180_000 }, async () => {
  const work = mkdtempSync(join(CACHE, 'run-'));
  const out = join(work, 'out');
  mkdirSync(out);
  let guest: Guest | undefined;
  try {
    initramfs(kernel!, join(work, 'initramfs.cpio'));
    const w = 640, h = 400;
    writeFileSync(join(out, 'run.sh'), [
      `cd ${ROOT}`,
      `node test/output/fixtures/vm-fb-writer.mjs /mnt ${w} ${h} || echo MLDS-A-FAILED`,
    ].join('\n') + '\n');
    const started = Date.now();
    guest = boot({
      kernel: kernel!.vmlinuz, initrd: join(work, 'initramfs.cpio'), outDir: out, monitorSocket: join(work, 'monitor.sock'),
      onLine: (l) => { if (process.env.MLDS_VM_VERBOSE || /MLDS/.test(l)) console.log(`# guest ${((Date.now() - started) / 1000).toFixed(1)}s: ${l}`); },
    });
    const ready = await guest.waitFor(/MLDS-GUEST-READY fb=(\d+),(\d+) bpp=(\d+)/, 60_000);
    assert.deepEqual([Number(ready[1]), Number(ready[3])], [FB_W, 32], 'bochs-drm gives a 1280-wide 32 bpp /dev/fb0');

    await guest.waitFor(/MLDS-DUMP a|MLDS-A-FAILED/, 60_000);
    assert.ok(!guest.lines.some((l) => l.includes('MLDS-A-FAILED')), 'the fbdev writer ran in the guest');
    await guest.monitor(`screendump ${join(work, 'a.png')} -f png`);
    writeFileSync(join(out, 'dumped-a'), '');
    const described = JSON.parse(readFileSync(join(out, 'fb-a.json'), 'utf8'));
    assert.equal(described.format, 'XRGB8888');
    assert.equal(described.geometry, 'ioctl', 'geometry came from FBIOGET_VSCREENINFO / FBIOGET_FSCREENINFO');
    const dump = await rgbaOfPng(join(work, 'a.png'));
    assert.deepEqual([dump.width, dump.height], [FB_W, FB_H]);
    const mism = compare(dump, readFileSync(join(out, 'frame-a.rgba')), w, h);
    assert.deepEqual(mism, [], 'every pixel of the screendump equals the frame (top-left) or black');

    const code = await Promise.race([guest.exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000).unref())]);
    assert.equal(code, 0, 'the guest powered off cleanly');
  } finally {
    guest?.kill();
    rmSync(work, { recursive: true, force: true });
  }
});
