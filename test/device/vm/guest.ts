// The systemd guest of the boot test. The busybox initramfs loads the drivers, frees /dev/fb0
// from the console, lays a tmpfs over the host's root (9p, read-only) with overlayfs, gives the
// guest its own empty /tmp and /var/tmp, lets
// /mnt/prepare.sh (from the writable share) install the unit, its user and the configuration
// into that root, sets the NIC's address, and hands over to the host's own systemd as init.
// mlds-vm.target wants only basic.target, mlds.service and a shell on ttyS1 for the test.
import { bootPrelude } from '../../output/vm/init.js';

/**
 * The folders a boot empties or walks (Debian's tmpfiles.d: `D /tmp`, `R! /var/tmp/systemd-private-*`
 * and the aged `D! /tmp/.X11-unix` ...): the guest gets its own tmpfs for each, or
 * systemd-tmpfiles-setup.service would walk the host's, file by file through 9p (minutes for
 * 100,000 files), and hide each behind an overlay whiteout. The other aged folders
 * (/var/cache/man, /var/lib/systemd/coredump) are only walked by systemd-tmpfiles-clean.service,
 * 15 minutes after boot, and hold the host's few files.
 */
export const GUEST_TMP = ['/tmp', '/var/tmp'];

/** The initramfs /init; `repo` is the checkout the service runs from. */
export function initScript(modules: string[], ip: string, repo: string): string {
  return `${bootPrelude(modules)}
mkdir -p /lower /rw /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro host /lower || echo "MLDS-GUEST mount host failed"
mount -t tmpfs -o size=512m tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /newroot || echo "MLDS-GUEST overlay failed"
# The service as /opt/mlds (the checkout, with dist/ and the native helper built): a mount, not a
# symlink, so neither the guest's own /tmp nor the unit's PrivateTmp= hides a checkout in /tmp.
mkdir -p /newroot/opt/mlds
mount --bind '/newroot${repo}' /newroot/opt/mlds || echo "MLDS-GUEST mount repo failed"
for d in ${GUEST_TMP.join(' ')}; do
  mount -t tmpfs -o mode=1777,size=256m tmpfs "/newroot$d" || echo "MLDS-GUEST tmpfs $d failed"
done
mount -t 9p -o trans=virtio,version=9p2000.L out /newroot/mnt || echo "MLDS-GUEST mount out failed"
sh /newroot/mnt/prepare.sh /newroot || echo "MLDS-GUEST prepare failed"
ip link set lo up
ip link set eth0 up
ip addr add ${ip}/24 dev eth0
ip route add default via 10.0.2.2
echo "MLDS-GUEST-SWITCH fb=$(cat /sys/class/graphics/fb0/virtual_size 2>/dev/null)"
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /lib/systemd/systemd
`;
}

/** Run by /init with the new root as $1, before systemd starts: what the Buildroot package would install. */
export function prepareScript(): string {
  return `#!/bin/sh
set -e
R=$1
# Nothing of the host's own disks, services or network daemons in the guest.
: > $R/etc/fstab
# The host's root is a container image: systemd would believe it runs in Docker and ignore the kernel command line.
rm -f $R/.dockerenv $R/run/.containerenv
for u in systemd-timesyncd.service avahi-daemon.service avahi-daemon.socket postgresql.service systemd-pstore.service getty@tty1.service; do
  ln -sf /dev/null $R/etc/systemd/system/$u
done
mkdir -p $R/etc/mlds $R/var/lib/mlds
# The mlds user with the unit's supplementary groups (video, dialout, audio).
echo 'mlds:x:990:990:mlds display control service:/var/lib/mlds:/usr/sbin/nologin' >> $R/etc/passwd
echo 'mlds:x:990:' >> $R/etc/group
for g in video dialout audio; do
  awk -F: -v g=$g 'BEGIN{OFS=":"} $1==g { $4 = ($4 == "" ? "mlds" : $4 ",mlds") } { print }' $R/etc/group > /tmp/group && cat /tmp/group > $R/etc/group
done
cp /newroot/mnt/config.json $R/etc/mlds/config.json
cp /newroot/mnt/state.json $R/var/lib/mlds/state.json
chown -R 990:990 $R/etc/mlds $R/var/lib/mlds
# The host's root has no udev: do what its default rules do for a framebuffer (SUBSYSTEM=="graphics", GROUP="video").
chgrp $(awk -F: '$1=="video"{print $3}' $R/etc/group) /dev/fb0 && chmod 660 /dev/fb0
# The unit exactly as the repository has it, plus the test's drop-in.
cp /newroot/mnt/mlds.service $R/etc/systemd/system/mlds.service
mkdir -p $R/etc/systemd/system/mlds.service.d
cp /newroot/mnt/test.conf $R/etc/systemd/system/mlds.service.d/test.conf
cp /newroot/mnt/mlds-vm.target /newroot/mnt/mlds-vm-agent.service $R/etc/systemd/system/
echo MLDS-GUEST prepared
`;
}

/** What a machine that boots straight to the service would have as its default target. */
export const TARGET = `[Unit]
Description=mlds systemd boot test
Requires=basic.target
After=basic.target
Wants=mlds.service mlds-vm-agent.service
AllowIsolate=yes
`;

/** A shell on the second serial port: one command a line, its output, then "__AGENT_END__ <exit code>". */
export const AGENT = `[Unit]
Description=mlds boot test: a shell on ttyS1
DefaultDependencies=no
After=systemd-journald.service

[Service]
ExecStart=/bin/sh /mnt/agent.sh
`;

export const AGENT_SCRIPT = `stty -F /dev/ttyS1 raw -echo
exec </dev/ttyS1 >/dev/ttyS1 2>&1
echo __AGENT_READY__
while IFS= read -r line; do
  out=$(sh -c "$line" 2>&1); rc=$?
  printf '%s\\n__AGENT_END__ %s\\n' "$out" "$rc"
done
`;

/** The test's drop-in: the test hook (SIGUSR2 stops every frame loop); everything else is the unit as shipped. */
export const DROP_IN = `[Service]
Environment=MLDS_TEST_HOOKS=1
`;
