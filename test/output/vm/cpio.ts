// A "newc" cpio archive, the format the kernel unpacks as its initramfs, written directly so
// the test needs no cpio tool.
import { readFileSync } from 'node:fs';
export interface CpioEntry {
  name: string;
  mode: number;
  data?: Uint8Array;
  link?: string;
}

const S_IFDIR = 0o040000,
  S_IFREG = 0o100000,
  S_IFLNK = 0o120000;
const hex8 = (n: number) => n.toString(16).padStart(8, '0');
const pad4 = (n: number) => (4 - (n % 4)) % 4;

export function dir(name: string): CpioEntry {
  return { name, mode: S_IFDIR | 0o755 };
}
export function file(name: string, data: Uint8Array, perm = 0o644): CpioEntry {
  return { name, mode: S_IFREG | perm, data };
}
export function symlink(name: string, target: string): CpioEntry {
  return { name, mode: S_IFLNK | 0o777, link: target };
}

export function cpio(entries: CpioEntry[]): Buffer {
  const parts: Buffer[] = [];
  let ino = 1;
  const put = (e: CpioEntry) => {
    const body = e.link !== undefined ? Buffer.from(e.link) : Buffer.from(e.data ?? new Uint8Array(0));
    const name = Buffer.from(e.name + '\0');
    const fields = [ino++, e.mode, 0, 0, 1, 0, body.length, 0, 0, 0, 0, name.length, 0];
    const header = Buffer.from('070701' + fields.map(hex8).join(''));
    parts.push(header, name, Buffer.alloc(pad4(header.length + name.length)), body, Buffer.alloc(pad4(body.length)));
  };
  entries.forEach(put);
  put({ name: 'TRAILER!!!', mode: 0 });
  return Buffer.concat(parts);
}

/** The guests' initramfs: busybox as /bin/sh, `init` as /init and each module file as /modules/<name>.ko. */
export function busyboxInitramfs(init: string, modules: Array<[name: string, file: string]>): Buffer {
  return cpio([
    ...['bin', 'dev', 'proc', 'sys', 'tmp', 'modules'].map(dir),
    file('bin/busybox', readFileSync('/bin/busybox'), 0o755),
    symlink('bin/sh', 'busybox'),
    file('init', Buffer.from(init), 0o755),
    ...modules.map(([name, f]) => file(`modules/${name}.ko`, readFileSync(f))),
  ]);
}
