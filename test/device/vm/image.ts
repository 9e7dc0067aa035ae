// build/mlds-arm64.img under qemu-system-aarch64 for the image test and the image bench: a sparse
// copy of the image, its kernel and initrd taken out with debugfs, the caller's files and a shell
// on a virtio serial port written into the copy, and a -M virt cortex-a53 guest (TCG) with
// virtio-gpu (/dev/fb0), the disk on virtio and the service's port 9199 forwarded here.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO } from '../../helpers/service.js';
import { start, type Machine } from './machine.js';

export const IMAGE = process.env.MLDS_IMAGE ?? join(REPO, 'build', 'mlds-arm64.img');
export const GUEST_IP = '10.0.2.15';
const QEMU = 'qemu-system-aarch64';

export function imageUnavailable(): string | undefined {
  if (spawnSync(QEMU, ['--version']).error) return `${QEMU} is not installed (Debian package qemu-system-arm; make test-image installs it)`;
  if (spawnSync('debugfs', ['-V']).error) return 'debugfs is not installed (Debian package e2fsprogs)';
  if (!existsSync(IMAGE)) return `${IMAGE} is missing (make image-arm64)`;
  return undefined;
}

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

const debugfs = (disk: string, cmds: string[], write = false) =>
  execFileSync('debugfs', [...(write ? ['-w'] : []), '-f', '-', disk], { input: cmds.join('\n') + '\n', encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });

export interface Prepared { kernel: string; initrd: string; disk: string }

/** A copy of the image in `work` with `files` (path in the image -> text) written over, plus the shell. */
export function prepareImage(work: string, files: Record<string, string>): Prepared {
  const disk = join(work, 'disk.img');
  execFileSync('cp', ['--sparse=always', IMAGE, disk]);
  const boot = debugfs(disk, ['ls -p /boot']);
  const name = (re: RegExp) => { const m = boot.split('\n').map((l) => l.split('/')[5]).find((n) => n && re.test(n)); assert.ok(m, `${re} in /boot:\n${boot}`); return m; };
  const kernel = join(work, 'vmlinuz'), initrd = join(work, 'initrd.img');
  debugfs(disk, [`dump /boot/${name(/^vmlinuz-/)} ${kernel}`, `dump /boot/${name(/^initrd\.img-/)} ${initrd}`]);
  // Debian's arm64 vmlinuz is a gzipped Image; QEMU is given it unpacked.
  const k = readFileSync(kernel);
  if (k[0] === 0x1f && k[1] === 0x8b) writeFileSync(kernel, gunzipSync(k));
  const local = (path: string, text: string) => { const f = join(work, `file-${basename(path)}`); writeFileSync(f, text); return f; };
  const all: Record<string, string> = {
    '/etc/systemd/system/mlds-test-agent.service': AGENT_UNIT, '/usr/local/sbin/mlds-test-agent': AGENT_SCRIPT, ...files,
  };
  const dirs = new Set(Object.keys(all).map((p) => p.slice(0, p.lastIndexOf('/'))));
  debugfs(disk, [
    // mkdir of a folder that is there fails harmlessly; rm of a file that is not, too.
    ...[...dirs].map((d) => `mkdir ${d}`),
    ...Object.entries(all).flatMap(([p, text]) => [`rm ${p}`, `write ${local(p, text)} ${p}`]),
    'symlink /etc/systemd/system/multi-user.target.wants/mlds-test-agent.service /etc/systemd/system/mlds-test-agent.service',
  ], true);
  for (const [p, text] of Object.entries(all)) assert.equal(debugfs(disk, [`cat ${p}`]).split('\n').slice(1).join('\n'), text, `${p} in the copy`);
  return { kernel, initrd, disk };
}

/** Boots the copy; `drives` are further raw disks (vdb, vdc, ...). */
export function bootImage(o: Prepared & { work: string; drives?: string[]; onLine?: (l: string) => void }): Promise<Machine> {
  return start({
    kernel: o.kernel, initrd: o.initrd, outDir: o.work, work: o.work, guestIp: GUEST_IP, guestPort: 9199, cmdline: '', onLine: o.onLine,
    qemu: ({ agentSock, monSock, port }) => ({
      bin: QEMU,
      args: ['-M', 'virt', '-cpu', 'cortex-a53', '-smp', '2', '-m', '1536', '-accel', 'tcg',
        '-display', 'none', '-no-reboot',
        '-kernel', o.kernel, '-initrd', o.initrd,
        '-append', 'root=LABEL=mlds-root rw console=ttyAMA0 panic=-1 loglevel=3 systemd.show_status=1 systemd.log_color=0',
        '-drive', `file=${o.disk},format=raw,if=virtio`,
        ...(o.drives ?? []).flatMap((d) => ['-drive', `file=${d},format=raw,if=virtio`]),
        '-device', 'virtio-gpu-pci',
        '-nic', `user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:${port}-:9199`,
        '-device', 'virtio-serial-pci',
        '-chardev', `socket,id=agent,path=${agentSock},server=on,wait=off`,
        '-device', 'virtserialport,chardev=agent,name=mlds.agent',
        '-serial', 'stdio', '-monitor', `unix:${monSock},server=on,wait=off`],
    }),
  });
}
