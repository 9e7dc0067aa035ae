// The kernel's GPIO simulator (gpio-sim) as a module for Debian's kernel of the VM tests.
// Debian's 6.1 kernel is built without it (`# CONFIG_GPIO_SIM is not set`, and without
// CONFIG_IRQ_SIM, the interrupt simulator it needs), so it is built out of tree, once, into the
// cache folder: drivers/gpio/gpio-sim.c, its private drivers/gpio/gpiolib.h and
// kernel/irq/irq_sim.c from Debian's linux-source of the same version, against Debian's
// linux-headers of that kernel (`apt-get download` + `dpkg-deb -x`, never installed), as one
// module. irq_sim.c's one call the kernel does not export, handle_simple_irq(irq_to_desc(n)),
// becomes generic_handle_irq(n), which runs the handler irq_sim itself gave the interrupt.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kernel } from './kernel.js';

const run = (cmd: string, args: string[], cwd?: string) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });

const SOURCES = ['drivers/gpio/gpio-sim.c', 'drivers/gpio/gpiolib.h', 'kernel/irq/irq_sim.c'];

/** The Debian version of the kernel package ensureKernel unpacked (its .deb is in the cache). */
function packageVersion(cacheDir: string, k: Kernel): string {
  const deb = readdirSync(cacheDir).find((f) => f.startsWith(`linux-image-${k.version}_`) && f.endsWith('.deb'));
  if (!deb) throw new Error(`no linux-image-${k.version} .deb in ${cacheDir}`);
  return deb.split('_')[1];
}

/** Downloads `pkgs` (name=version) into `dir` unless a .deb of each is there. */
function download(dir: string, pkgs: string[]): void {
  const have = readdirSync(dir);
  const missing = pkgs.filter((p) => !have.some((f) => f.startsWith(p.split('=')[0] + '_') && f.endsWith('.deb')));
  if (missing.length) run('apt-get', ['download', ...missing], dir);
}

/** Path of gpio-sim.ko for kernel `k`, built on first use and kept in `cacheDir`. */
export function ensureGpioSim(cacheDir: string, k: Kernel): string {
  const root = join(cacheDir, `gpio-sim-${k.version}`);
  const ko = join(root, 'mod', 'gpio-sim.ko');
  if (existsSync(ko)) return ko;
  const version = packageVersion(cacheDir, k);
  const series = /^\d+\.\d+/.exec(version)![0];
  const abi = k.version.replace(/-amd64$/, '');
  rmSync(root, { recursive: true, force: true });
  const debs = join(root, 'debs'),
    tree = join(root, 'tree'),
    mod = join(root, 'mod');
  for (const d of [debs, tree, mod]) mkdirSync(d, { recursive: true });
  const headers = [`linux-headers-${k.version}`, `linux-headers-${abi}-common`, `linux-kbuild-${series}`];
  const source = `linux-source-${series}`;
  download(debs, [...headers.map((p) => `${p}=${version}`), `${source}=${version}`]);
  const deb = (p: string) =>
    join(
      debs,
      readdirSync(debs).find((f) => f.startsWith(p + '_'))!,
    );
  for (const p of headers) run('dpkg-deb', ['-x', deb(p), tree]);
  // The headers' Makefile includes the common one by its installed path.
  const kdir = join(tree, 'usr', 'src', `linux-headers-${k.version}`);
  writeFileSync(
    join(kdir, 'Makefile'),
    readFileSync(join(kdir, 'Makefile'), 'utf8').replace(/include \/usr\/src\//, `include ${tree}/usr/src/`),
  );
  // Only the three files are taken out of the source tarball (xz: the whole stream is read once).
  const tarball = join(root, `${source}.tar.xz`);
  run('sh', [
    '-c',
    `dpkg-deb --fsys-tarfile "$1" | tar -xO "./usr/src/$2.tar.xz" > "$3"`,
    'sh',
    deb(source),
    source,
    tarball,
  ]);
  run('tar', ['-xJf', tarball, '-C', tree, ...SOURCES.map((f) => `${source}/${f}`)]);
  rmSync(tarball);
  const src = join(tree, source);
  copyFileSync(join(src, 'drivers/gpio/gpio-sim.c'), join(mod, 'gpio-sim-core.c'));
  copyFileSync(join(src, 'drivers/gpio/gpiolib.h'), join(mod, 'gpiolib.h'));
  const irqSim = readFileSync(join(src, 'kernel/irq/irq_sim.c'), 'utf8');
  const call = 'handle_simple_irq(irq_to_desc(irqnum))';
  if (!irqSim.includes(call)) throw new Error(`irq_sim.c of ${version} no longer calls ${call}`);
  writeFileSync(join(mod, 'irq_sim.c'), irqSim.replace(call, 'generic_handle_irq(irqnum)'));
  writeFileSync(join(mod, 'Kbuild'), 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-core.o irq_sim.o\n');
  run('make', ['-C', kdir, `M=${mod}`, 'modules']);
  if (!existsSync(ko)) throw new Error('the gpio-sim build left no gpio-sim.ko');
  rmSync(debs, { recursive: true, force: true });
  return ko;
}
