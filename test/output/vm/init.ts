// The guest's /init: load the drivers, free /dev/fb0 from the console, mount the host, then run
// /mnt/run.sh (from the writable share) inside a chroot of the host's own filesystem.
// No tmpfs over /tmp: the checkout under test may itself live in the host's /tmp.
export function initScript(modules: string[], params: Record<string, string> = {}, fb = true): string {
  return `${bootPrelude(modules, params, fb)}
mkdir -p /host
mount -t 9p -o trans=virtio,version=9p2000.L,ro host /host || echo "MLDS-GUEST mount host failed"
mount -t 9p -o trans=virtio,version=9p2000.L out /host/mnt || echo "MLDS-GUEST mount out failed"
mount --bind /dev /host/dev
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
ifconfig lo 127.0.0.1 up
echo "MLDS-GUEST-READY fb=$(cat /sys/class/graphics/fb0/virtual_size 2>/dev/null) bpp=$(cat /sys/class/graphics/fb0/bits_per_pixel 2>/dev/null)"
chroot /host /bin/sh /mnt/run.sh
echo "MLDS-GUEST-EXIT $?"
poweroff -f
`;
}

const FREE_FB = `
i=0; while [ ! -e /dev/fb0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
# The framebuffer console would repaint over the test's pixels.
for v in /sys/class/vtconsole/vtcon*; do grep -q "frame buffer" $v/name && echo 0 > $v/bind; done`;

/**
 * The start every guest's /init shares: busybox, /proc /sys /dev, the drivers, /dev/fb0 freed from the
 * console (`fb`; a guest without a framebuffer driver skips the 10 s wait for it).
 */
export function bootPrelude(modules: string[], params: Record<string, string> = {}, fb = true): string {
  const load = modules
    .map((m) => `insmod /modules/${m}.ko ${params[m] ?? ''} || echo "MLDS-GUEST insmod ${m} failed"`)
    .join('\n');
  return `#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
${load}${fb ? FREE_FB : ''}`;
}
