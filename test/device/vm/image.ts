// build/mlds-arm64.img under qemu-system-aarch64 for the image tests and the image bench: a sparse
// copy of the disk (GPT: esp, rootfs-a, rootfs-b, data; scripts/image/build.sh), the caller's files
// and a shell on a virtio serial port written into its partitions with debugfs (ext4) and mtools
// (the ESP's grubenv), booted by Debian's arm64 UEFI firmware (qemu-efi-aarch64) and the image's
// own GRUB as a -M virt cortex-a53 guest (TCG) with virtio-gpu (/dev/fb0), the disk on virtio and
// the service's port 9199 forwarded here. A reboot of the guest resets it in place.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { REPO } from '../../helpers/service.js';
import { start, type Machine } from './machine.js';

export const IMAGE = process.env.MLDS_IMAGE ?? join(REPO, 'build', 'mlds-arm64.img');
export const GUEST_IP = '10.0.2.15';
const QEMU = 'qemu-system-aarch64';
export const FIRMWARE = '/usr/share/qemu-efi-aarch64/QEMU_EFI.fd';

export function imageUnavailable(): string | undefined {
  if (spawnSync(QEMU, ['--version']).error)
    return `${QEMU} is not installed (Debian package qemu-system-arm; make test-image installs it)`;
  if (spawnSync('debugfs', ['-V']).error) return 'debugfs is not installed (Debian package e2fsprogs)';
  if (!existsSync(FIRMWARE))
    return `${FIRMWARE} is missing (Debian package qemu-efi-aarch64; make test-image installs it)`;
  if (spawnSync('mcopy', ['-V']).error || spawnSync('grub-editenv', ['--version']).error)
    return 'mtools or grub-editenv is not installed (Debian packages mtools, grub-common)';
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

/** The disk's partitions by GPT name, with their byte offsets. */
export function partitions(disk: string): Record<string, { offset: number; bytes: number }> {
  const t = JSON.parse(execFileSync('sfdisk', ['-J', disk], { encoding: 'utf8' })) as {
    partitiontable: { sectorsize?: number; partitions: Array<{ name?: string; start: number; size: number }> };
  };
  const sector = t.partitiontable.sectorsize ?? 512;
  return Object.fromEntries(
    t.partitiontable.partitions.map((p) => [p.name ?? '', { offset: p.start * sector, bytes: p.size * sector }]),
  );
}

/**
 * debugfs on one ext4 partition of the disk (e2fsprogs opens it at an offset), or on a file system image (no `part`).
 */
export function debugfs(disk: string, part: string | undefined, cmds: string[], write = false): string {
  const at = part === undefined ? { offset: 0 } : partitions(disk)[part];
  assert.ok(at, `partition ${part} on ${disk}`);
  return execFileSync(
    'debugfs',
    [...(write ? ['-w'] : []), '-f', '-', at.offset ? `${disk}?offset=${at.offset}` : disk],
    { input: cmds.join('\n') + '\n', encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] },
  );
}

/** Writes `files` (path -> text) into an ext4 partition, making their folders; checks each. */
export function writeFiles(
  disk: string,
  part: string | undefined,
  work: string,
  files: Record<string, string>,
  links: Array<[string, string]> = [],
): void {
  const local = (path: string, text: string) => {
    const f = join(work, `file-${part ?? 'fs'}-${basename(path)}`);
    writeFileSync(f, text);
    return f;
  };
  const dirs = new Set<string>();
  for (const p of Object.keys(files))
    for (let d = p.slice(0, p.lastIndexOf('/')); d; d = d.slice(0, d.lastIndexOf('/'))) dirs.add(d);
  debugfs(
    disk,
    part,
    [
      // mkdir of a folder that is there fails harmlessly; rm of a file that is not, too.
      ...[...dirs].sort().map((d) => `mkdir ${d}`),
      ...Object.entries(files).flatMap(([p, text]) => [`rm ${p}`, `write ${local(p, text)} ${p}`]),
      ...links.map(([link, target]) => `symlink ${link} ${target}`),
    ],
    true,
  );
  for (const [p, text] of Object.entries(files))
    assert.equal(
      debugfs(disk, part, [`cat ${p}`])
        .split('\n')
        .slice(1)
        .join('\n'),
      text,
      `${p} in ${part ?? disk}`,
    );
}

/** The ESP's grubenv (GRUB's boot counters), read and optionally changed with grub-editenv. */
export function grubenv(disk: string, work: string, set: Record<string, string> = {}): Record<string, string> {
  const img = `${disk}@@${partitions(disk).esp.offset}`;
  const local = join(work, 'grubenv');
  execFileSync('mcopy', ['-o', '-n', '-i', img, '::/EFI/BOOT/grubenv', local]);
  if (Object.keys(set).length) {
    execFileSync('grub-editenv', [local, 'set', ...Object.entries(set).map(([k, v]) => `${k}=${v}`)]);
    execFileSync('mcopy', ['-o', '-n', '-i', img, local, '::/EFI/BOOT/grubenv']);
  }
  return Object.fromEntries(
    execFileSync('grub-editenv', [local, 'list'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/**
 * Ten minutes, not 90 s, for a device and a start job, in every root the tests boot: under TCG on
 * a loaded host udev's coldplug can take longer than 90 s to show the disk's partitions (54 s at a
 * load of 3, over 90 s at 5 to 7, where the data partition's mount gave up and the guest stopped
 * in emergency mode): the emulator's pace, not the image's. (systemd 252 has no kernel argument
 * for a device's wait.)
 */
export const SLOW_GUEST_FILES = {
  '/etc/systemd/system.conf.d/test-slow-guest.conf':
    '[Manager]\nDefaultDeviceTimeoutSec=600\nDefaultTimeoutStartSec=600\n',
};

/** The test's shell on the virtio port, for a root file system (a slot or a bundle's root), with SLOW_GUEST_FILES. */
export const AGENT_FILES = {
  '/etc/systemd/system/mlds-test-agent.service': AGENT_UNIT,
  '/usr/local/sbin/mlds-test-agent': AGENT_SCRIPT,
  ...SLOW_GUEST_FILES,
};
export const AGENT_LINK: [string, string] = [
  '/etc/systemd/system/multi-user.target.wants/mlds-test-agent.service',
  '/etc/systemd/system/mlds-test-agent.service',
];

/** Kernel arguments for the test's console: systemd's progress, no colours, the serial port. */
export const TEST_CMDLINE = 'console=ttyAMA0 loglevel=3 systemd.show_status=1 systemd.log_color=0';

export interface Prepared {
  disk: string;
}

/**
 * A copy of the image in `work` with `files` (path in the running system -> text) written over,
 * plus the shell: /etc/mlds/... and /var/lib/mlds/... go to the data partition (the fstab binds
 * them from there), everything else to root slot A.
 */
export function prepareImage(work: string, files: Record<string, string>): Prepared {
  const disk = join(work, 'disk.img');
  execFileSync('cp', ['--sparse=always', IMAGE, disk]);
  const slot: Record<string, string> = { ...AGENT_FILES },
    data: Record<string, string> = {};
  for (const [p, text] of Object.entries(files)) {
    if (p.startsWith('/etc/mlds/')) data[p] = text;
    else if (p.startsWith('/var/lib/mlds/')) data[p.replace('/var/lib/mlds/', '/lib/mlds/')] = text;
    else slot[p] = text;
  }
  writeFiles(disk, 'rootfs-a', work, slot, [AGENT_LINK]);
  if (Object.keys(data).length) writeFiles(disk, 'data', work, data);
  grubenv(disk, work, { CMDLINE_EXTRA: TEST_CMDLINE });
  return { disk };
}

/** Boots the copy; `drives` are further raw disks (vdb, vdc, ...). */
export function bootImage(
  o: Prepared & { work: string; drives?: string[]; onLine?: (l: string) => void },
): Promise<Machine> {
  return start({
    kernel: '',
    initrd: '',
    outDir: o.work,
    work: o.work,
    guestIp: GUEST_IP,
    guestPort: 9199,
    cmdline: '',
    onLine: o.onLine,
    qemu: ({ agentSock, monSock, port }) => ({
      bin: QEMU,
      args: [
        '-M',
        'virt',
        '-cpu',
        'cortex-a53',
        '-smp',
        '2',
        '-m',
        '1536',
        '-accel',
        'tcg',
        '-display',
        'none',
        '-bios',
        FIRMWARE,
        '-drive',
        `file=${o.disk},format=raw,if=virtio`,
        ...(o.drives ?? []).flatMap((d) => ['-drive', `file=${d},format=raw,if=virtio`]),
        '-device',
        'virtio-gpu-pci',
        // A hardware watchdog, as a controller board has one: systemd pets it (the image's
        // system.conf.d/mlds-watchdog.conf) and it resets the machine when nothing does.
        '-device',
        'i6300esb',
        '-action',
        'watchdog=reset',
        '-nic',
        `user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:${port}-:9199`,
        '-device',
        'virtio-serial-pci',
        '-chardev',
        `socket,id=agent,path=${agentSock},server=on,wait=off`,
        '-device',
        'virtserialport,chardev=agent,name=mlds.agent',
        '-serial',
        'stdio',
        '-monitor',
        `unix:${monSock},server=on,wait=off`,
      ],
    }),
  });
}
