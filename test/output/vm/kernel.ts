// Debian's own amd64 kernel for the framebuffer VM test, unpacked (never installed) into a
// cache folder: `apt-get download` + `dpkg-deb -x`, reused by later runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface Kernel {
  version: string;
  vmlinuz: string;
  modules: Map<string, string>;
}

const run = (cmd: string, args: string[], cwd?: string) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** linux-image-amd64 is a metapackage; the image it depends on holds the kernel. */
function imagePackage(): string {
  let deps = '';
  try {
    deps = run('apt-cache', ['depends', 'linux-image-amd64']);
  } catch {
    /* no package lists yet */
  }
  if (!/Depends:/.test(deps)) {
    // A fresh machine may never have fetched package lists.
    run('apt-get', ['update', '-qq']);
    deps = run('apt-cache', ['depends', 'linux-image-amd64']);
  }
  const m = /Depends:\s*(linux-image-\S+-amd64)/.exec(deps);
  if (!m) throw new Error('apt-cache knows no linux-image-amd64 (run apt-get update)');
  return m[1];
}

function walk(dir: string, out: Map<string, string>): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.ko')) out.set(e.name.slice(0, -3).replace(/-/g, '_'), p);
  }
}

export function ensureKernel(cacheDir: string): Kernel {
  mkdirSync(cacheDir, { recursive: true });
  const pkg = imagePackage();
  const root = join(cacheDir, pkg);
  if (!existsSync(join(root, 'boot'))) {
    if (!readdirSync(cacheDir).some((f) => f.startsWith(pkg + '_') && f.endsWith('.deb')))
      run('apt-get', ['download', pkg], cacheDir);
    const deb = readdirSync(cacheDir).find((f) => f.startsWith(pkg + '_') && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${pkg} left no .deb`);
    rmSync(root, { recursive: true, force: true });
    run('dpkg-deb', ['-x', join(cacheDir, deb), root]);
  }
  const vmlinuz = readdirSync(join(root, 'boot')).find((f) => f.startsWith('vmlinuz-'));
  if (!vmlinuz) throw new Error(`${pkg} holds no vmlinuz`);
  const version = vmlinuz.slice('vmlinuz-'.length);
  const modules = new Map<string, string>();
  walk(join(root, 'lib', 'modules', version), modules);
  return { version, vmlinuz: join(root, 'boot', vmlinuz), modules };
}

/** A module's `depends=` from its .modinfo section: what depmod would have written. */
function depends(file: string): string[] {
  const buf = readFileSync(file);
  const at = buf.indexOf('\0depends=');
  if (at < 0) return [];
  const start = at + '\0depends='.length;
  const v = buf.subarray(start, buf.indexOf(0, start)).toString();
  return v ? v.split(',').map((s) => s.replace(/-/g, '_')) : [];
}

/** The wanted modules and everything they need, dependencies first: the insmod order. */
export function loadOrder(k: Kernel, wanted: string[]): string[] {
  const order: string[] = [];
  const visit = (name: string) => {
    if (order.includes(name)) return;
    const file = k.modules.get(name);
    if (!file) return; // built into the kernel
    for (const d of depends(file)) visit(d);
    order.push(name);
  };
  wanted.forEach(visit);
  return order;
}
