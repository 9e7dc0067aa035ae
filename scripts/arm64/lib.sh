# Shared by scripts/arm64/run.sh and scripts/image/build.sh: the host's Debian mirror, binfmt_misc
# for arm64 binaries through qemu-aarch64-static, and the stages' bookkeeping.

# The host's Debian mirror, as apt is set up here (debootstrap needs one URL).
mirror() {
  local u
  u=$(grep -hoE '^URIs: *\S+' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1 | awk '{print $2}')
  [ -n "$u" ] || u=$(grep -hoE '^deb +\S+' /etc/apt/sources.list 2>/dev/null | head -1 | awk '{print $2}')
  echo "$u"
}

binfmt() {
  [ -d /proc/sys/fs/binfmt_misc ] && [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64
  grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64
}

# Stage bookkeeping: `timed NAME cmd...` runs a stage once (a marker in $WORK) and logs its time to $LOG.
stamp() { echo "$(date -u +%FT%TZ) $*" | tee -a "$LOG"; }
timed() {
  local name=$1; shift
  [ -f "$WORK/.done-$name" ] && { echo "$(basename "$WORK"): $name already done"; return 0; }
  local t0=$SECONDS
  stamp "$name: start"
  "$@"
  stamp "$name: done in $((SECONDS - t0)) s"
  touch "$WORK/.done-$name"
}
