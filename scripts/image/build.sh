#!/bin/bash
# `make image-arm64`: build/mlds-arm64.img, an ext4 root file system (label mlds-root) of Debian
# bookworm arm64 for a controller: debootstrap's minbase with Debian's kernel, systemd with
# networkd (DHCP on eth0, the first Ethernet), udev, the mlds package and a serial console (the
# getty systemd starts on the kernel's console=). binfmt_misc runs the root's arm64 maintainer
# scripts through qemu-aarch64-static. Each stage leaves a marker; times go to .vm/image/times.log.
#
#   scripts/image/build.sh DEB [stage...]    stages: root setup kernel deb fs (default: all)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../arm64/lib.sh
. "$REPO/scripts/arm64/lib.sh"
DEB=$(readlink -f "$1"); shift
WORK=${IMAGE_WORK:-$REPO/.vm/image}
ROOT=$WORK/root
OUT=${IMAGE_OUT:-$REPO/build/mlds-arm64.img}
LOG=$WORK/times.log
SUITE=bookworm
# The kernel and what boots it (udev loads the drivers; initramfs-tools makes the initrd), systemd
# with networkd and resolved (DNS from DHCP) and timesyncd (the clock areas and crons need the
# time), D-Bus (networkctl reload for /setethernetconfig), and the package's own Depends.
PKGS=initramfs-tools,kmod,udev,systemd,systemd-sysv,systemd-resolved,systemd-timesyncd,dbus,ca-certificates,$(grep -v '^#' "$REPO/packaging/depends" | paste -sd,)

mkdir -p "$WORK" "$(dirname "$OUT")"
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
mounts() {
  for m in proc sys dev; do mkdir -p "$ROOT/$m"; done
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
  mountpoint -q "$ROOT/sys" || mount --rbind /sys "$ROOT/sys"
  mountpoint -q "$ROOT/dev" || mount --rbind /dev "$ROOT/dev"
}
unmount() {
  for m in dev sys proc; do mountpoint -q "$ROOT/$m" && umount -R -l "$ROOT/$m"; done
  return 0
}
trap unmount EXIT

stage_root() {
  rm -rf "$ROOT"
  # No documentation but the licences, no manual pages, no translations: a controller has no reader.
  debootstrap --arch=arm64 --variant=minbase --include="$PKGS" "$SUITE" "$ROOT" "$(mirror)"
}

# The kernel after debootstrap, not in its --include: there initramfs-tools' own trigger would make
# the initrd a second time (each one takes 10 to 20 minutes under qemu-user). And after setup: the
# initrd's udev names the interfaces, so it must get the masked 99-default.link (kernel names).
stage_kernel() {
  mounts
  # apt in the root resolves names with the host's resolver; the device's stub comes back after.
  local rc=$ROOT/etc/resolv.conf
  rm -f "$rc"; cp /etc/resolv.conf "$rc"
  in_root apt-get update -qq
  in_root apt-get install -y -qq --no-install-recommends linux-image-arm64 >/dev/null
  rm -f "$rc"; ln -sfn ../run/systemd/resolve/stub-resolv.conf "$rc"
  ls "$ROOT"/boot/vmlinuz-* "$ROOT"/boot/initrd.img-*
}

stage_setup() {
  echo mlds >"$ROOT/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\tmlds\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOT/etc/hosts"
  # The root is this file system whatever the board calls its disk; growfs fills a larger partition.
  echo 'LABEL=mlds-root / ext4 defaults,noatime,errors=remount-ro,x-systemd.growfs 0 1' >"$ROOT/etc/fstab"
  # Kernel names (eth0 is the first Ethernet the kernel finds) instead of the predictable ones,
  # which differ per board (end0, enp1s0, ...): the DHCP file below and /setethernetconfig name eth0.
  ln -sfn /dev/null "$ROOT/etc/systemd/network/99-default.link"
  cat >"$ROOT/etc/systemd/network/20-eth0.network" <<'NET'
[Match]
Name=eth0

[Network]
DHCP=yes
NET
  # A controller without a cable still starts mlds (After=network-online.target) within 30 s.
  mkdir -p "$ROOT/etc/systemd/system/systemd-networkd-wait-online.service.d"
  printf '[Service]\nExecStart=\nExecStart=/lib/systemd/systemd-networkd-wait-online --any --timeout=30\n' \
    >"$ROOT/etc/systemd/system/systemd-networkd-wait-online.service.d/mlds.conf"
  in_root systemctl enable systemd-networkd systemd-resolved systemd-timesyncd
  # The panel is the service's: the kernel's framebuffer console would paint its text and cursor
  # over /dev/fb0, so it lets go of every framebuffer as soon as it binds (the serial console stays).
  echo 'SUBSYSTEM=="vtconsole", ATTR{name}=="*frame buffer*", ATTR{bind}="0"' >"$ROOT/etc/udev/rules.d/60-mlds-fbcon.rules"
  ln -sfn ../run/systemd/resolve/stub-resolv.conf "$ROOT/etc/resolv.conf"
  cat >"$ROOT/etc/dpkg/dpkg.cfg.d/01-mlds-nodoc" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/info/*
DPKG
}

stage_deb() {
  mounts
  cp "$DEB" "$ROOT/tmp/mlds.deb"
  in_root dpkg -i /tmp/mlds.deb
  rm -f "$ROOT/tmp/mlds.deb"
  in_root systemctl is-enabled mlds.service
}

stage_fs() {
  unmount
  # What the build left behind that a device does not need.
  find "$ROOT/usr/share/doc" -type f ! -name copyright -delete 2>/dev/null || true
  rm -rf "$ROOT"/usr/share/man/* "$ROOT"/usr/share/locale/* "$ROOT"/usr/share/info/* \
    "$ROOT"/var/cache/apt/*.bin "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/* \
    "$ROOT"/var/log/*.log "$ROOT"/etc/machine-id "$ROOT"/var/lib/dbus/machine-id
  # An empty machine-id: systemd makes one on the first boot (each controller its own).
  : >"$ROOT/etc/machine-id"
  local used size
  used=$(du -sm "$ROOT" | cut -f1)
  # Room for the journal and the inode tables, and a little to spare; growfs gives the rest on a board.
  size=$((used * 110 / 100 + 48))
  rm -f "$OUT"
  mkfs.ext4 -q -L mlds-root -m 1 -d "$ROOT" "$OUT" "${size}M"
  echo "image: $OUT: ${size} MiB file system, $used MiB used ($(du -h "$OUT" | cut -f1) on disk, sparse)"
  [ "$size" -lt 1024 ] || { echo "image: ${size} MiB is over the 1 GiB budget" >&2; return 1; }
}

stages=${*:-root setup kernel deb fs}
binfmt
for s in $stages; do
  case $s in
    root) timed root stage_root ;;
    kernel) timed kernel stage_kernel ;;
    setup) timed setup stage_setup ;;
    deb) rm -f "$WORK/.done-deb" "$WORK/.done-fs"; timed deb stage_deb ;;
    fs) rm -f "$WORK/.done-fs"; timed fs stage_fs ;;
    *) echo "unknown stage $s" >&2; exit 64 ;;
  esac
done
