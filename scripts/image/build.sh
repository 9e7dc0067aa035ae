#!/bin/bash
# `make image-arm64`: build/mlds-arm64.img, a GPT disk for an arm64 controller (docs/device.md):
#
#   1  esp       64 MiB   FAT: GRUB for arm64 EFI (EFI/BOOT/BOOTAA64.EFI), grub.cfg, grubenv
#   2  rootfs-a  1 GiB    ext4: root slot A, read-only, its own kernel and initrd in /boot
#   3  rootfs-b  1 GiB    root slot B, empty until RAUC installs a bundle into it
#   4  data      512 MiB  ext4: /etc/mlds, /var/lib/mlds, /var/log ... (scripts/image/rootfs/etc/fstab)
#
# The root is Debian bookworm arm64 (debootstrap's minbase) with Debian's kernel, systemd with
# networkd (DHCP on eth0, the first Ethernet), udev, RAUC, the mlds package and a serial console
# (the getty systemd starts on the kernel's console). binfmt_misc runs the root's arm64
# maintainer scripts through qemu-aarch64-static. The root file system alone is also kept as
# build/mlds-arm64-root.ext4: `make bundle` (scripts/image/bundle.sh) packs it. Each stage leaves
# a marker; times go to .vm/image/times.log.
#
#   scripts/image/build.sh DEB [stage...]    stages: root setup kernel deb fs disk (default: all)
#   BUNDLE_CA: the certificate (PEM) bundles are checked against (make bundle-keys makes one)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../arm64/lib.sh
. "$REPO/scripts/arm64/lib.sh"
DEB=$(readlink -f "$1"); shift
WORK=${IMAGE_WORK:-$REPO/.vm/image}
ROOT=$WORK/root
OUT=${IMAGE_OUT:-$REPO/build/mlds-arm64.img}
ROOTFS=${IMAGE_ROOTFS:-$REPO/build/mlds-arm64-root.ext4}
CA=${BUNDLE_CA:-$REPO/dev-keys/ca.cert.pem}
LOG=$WORK/times.log
SUITE=bookworm
# The kernel and what boots it (udev loads the drivers; initramfs-tools makes the initrd), systemd
# with networkd and resolved (DNS from DHCP) and timesyncd (the clock areas and crons need the
# time), D-Bus (networkctl reload for /setethernetconfig, RAUC's service), RAUC with GRUB's
# tools (grub-editenv keeps the boot counters; the arm64 EFI modules make the ESP's loader) and
# what installs a bundle (squashfs, e2fsprogs), and the package's own Depends.
PKGS=initramfs-tools,kmod,udev,systemd,systemd-sysv,systemd-resolved,systemd-timesyncd,dbus,ca-certificates,rauc,rauc-service,grub-common,grub-efi-arm64-bin,squashfs-tools,e2fsprogs,$(grep -v '^#' "$REPO/packaging/depends" | paste -sd,)

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
  # polkitd: the service (user mlds) reboots the controller after an update with `systemctl
  # reboot`, which logind allows it by /etc/polkit-1/rules.d/50-mlds.rules.
  in_root apt-get install -y -qq --no-install-recommends polkitd >/dev/null
  rm -f "$rc"; ln -sfn ../run/systemd/resolve/stub-resolv.conf "$rc"
  ls "$ROOT"/boot/vmlinuz-* "$ROOT"/boot/initrd.img-*
}

stage_setup() {
  echo mlds >"$ROOT/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\tmlds\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOT/etc/hosts"
  # fstab (the data partition and what is bound from it), RAUC's system.conf, the unit's
  # reboot-on-failure drop-in, the machine ID kept in the grubenv, the journal's bounds.
  cp -r --no-preserve=ownership "$REPO/scripts/image/rootfs/." "$ROOT/"
  mkdir -p "$ROOT/data" "$ROOT/boot/efi" "$ROOT/var/cache/mlds"
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
  in_root systemctl enable systemd-networkd systemd-resolved systemd-timesyncd mlds-machine-id
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
  # The package ships mlds-mark-good.service; only an A/B image enables it.
  in_root systemctl enable mlds-mark-good.service
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
  # GRUB loads /boot/vmlinuz and /boot/initrd.img of the slot it boots.
  ln -sfn "$(basename "$(ls "$ROOT"/boot/vmlinuz-* | tail -1)")" "$ROOT/boot/vmlinuz"
  ln -sfn "$(basename "$(ls "$ROOT"/boot/initrd.img-* | tail -1)")" "$ROOT/boot/initrd.img"
  # The certificate authority RAUC checks bundles against.
  [ -f "$CA" ] || { echo "image: $CA is missing (make bundle-keys, or BUNDLE_CA=...)" >&2; return 1; }
  install -m 0644 "$CA" "$ROOT/etc/rauc/keyring.pem"
  local used size
  used=$(du -sm "$ROOT" | cut -f1)
  # Room for the inode tables and a little to spare: the slot's file system is only read, and
  # RAUC grows it to its partition when it installs it (resize=true), as the disk stage does.
  size=$((used * 108 / 100 + 32))
  rm -f "$ROOTFS"
  mkfs.ext4 -q -L mlds-root -m 0 -d "$ROOT" "$ROOTFS" "${size}M"
  echo "image: $ROOTFS: ${size} MiB file system, $used MiB used"
  [ "$size" -lt "$SLOT_MB" ] || { echo "image: ${size} MiB is over the ${SLOT_MB} MiB slot" >&2; return 1; }
}

# Partition sizes in MiB (GPT: the first MiB and the last hold the tables).
ESP_MB=64 SLOT_MB=1024 DATA_MB=512

stage_disk() {
  local d=$WORK/disk; rm -rf "$d"; mkdir -p "$d"
  # The ESP: GRUB made from the root's arm64-efi modules by the host's grub-mkimage, with its
  # prefix on this partition, grub.cfg and the first boot counters (slot A good, B empty).
  grub-mkimage -O arm64-efi -d "$ROOT/usr/lib/grub/arm64-efi" -p /EFI/BOOT -o "$d/BOOTAA64.EFI" \
    part_gpt fat ext2 normal linux boot configfile loadenv echo test regexp gzio efi_gop all_video sleep reboot
  grub-editenv "$d/grubenv" create
  grub-editenv "$d/grubenv" set ORDER="A B" A_OK=1 A_TRY=0 B_OK=0 B_TRY=0
  mkfs.vfat -n MLDS-ESP -C "$d/esp.img" $((ESP_MB * 1024)) >/dev/null
  mmd -i "$d/esp.img" ::/EFI ::/EFI/BOOT
  mcopy -i "$d/esp.img" "$d/BOOTAA64.EFI" "$REPO/scripts/image/grub.cfg" "$d/grubenv" ::/EFI/BOOT/
  # Slot A: the root file system grown to its partition.
  cp --sparse=always "$ROOTFS" "$d/a.img"
  resize2fs -f "$d/a.img" "${SLOT_MB}M" >/dev/null 2>&1
  # The data partition: what the fstab binds, as the packages left it in the root.
  local data=$d/data
  mkdir -p "$data/etc" "$data/lib" "$data/cache/mlds" "$data/rauc"
  cp -a "$ROOT/etc/mlds" "$data/etc/mlds"
  cp -a "$ROOT/etc/systemd/network" "$data/etc/network"
  cp -a "$ROOT/var/lib/systemd" "$data/lib/systemd"
  mkdir -p "$ROOT/var/lib/mlds" && cp -a "$ROOT/var/lib/mlds" "$data/lib/mlds"
  cp -a "$ROOT/var/log" "$data/log" && mkdir -p "$data/log/journal"
  mkfs.ext4 -q -L mlds-data -m 1 -d "$data" "$d/data.img" "${DATA_MB}M"
  # The disk: the GPT, then each partition written at its offset (holes stay holes).
  rm -f "$OUT"
  truncate -s $(( (1 + ESP_MB + 2 * SLOT_MB + DATA_MB + 1) * 1024 * 1024 )) "$OUT"
  sfdisk -q "$OUT" <<PARTS
label: gpt
start=1MiB, size=${ESP_MB}MiB, type=U, name=esp
size=${SLOT_MB}MiB, type=L, name=rootfs-a
size=${SLOT_MB}MiB, type=L, name=rootfs-b
size=${DATA_MB}MiB, type=L, name=data
PARTS
  local at=1
  for p in esp a b data; do
    [ "$p" = b ] || dd if="$d/$p.img" of="$OUT" bs=1M seek=$at conv=notrunc,sparse status=none
    case $p in esp) at=$((at + ESP_MB)) ;; a|b) at=$((at + SLOT_MB)) ;; esac
  done
  rm -rf "$d"
  echo "image: $OUT: $(du -h --apparent-size "$OUT" | cut -f1) disk ($(du -h "$OUT" | cut -f1) on disk, sparse)"
  sfdisk -l "$OUT" | tail -n 5
}

stages=${*:-root setup kernel deb fs disk}
binfmt
for s in $stages; do
  case $s in
    root) timed root stage_root ;;
    kernel) timed kernel stage_kernel ;;
    setup) timed setup stage_setup ;;
    deb) rm -f "$WORK/.done-deb" "$WORK/.done-fs" "$WORK/.done-disk"; timed deb stage_deb ;;
    fs) rm -f "$WORK/.done-fs" "$WORK/.done-disk"; timed fs stage_fs ;;
    disk) rm -f "$WORK/.done-disk"; timed disk stage_disk ;;
    *) echo "unknown stage $s" >&2; exit 64 ;;
  esac
done
