#!/bin/bash
# `make cross`: the native helper (native/) for ARM controllers, built on this machine with
# Debian's cross compilers. Each architecture builds in its own copy of native/ (node-gyp
# always writes ./build), and the result is checked to be an ELF for that machine.
#
#   scripts/cross-native.sh [armhf] [aarch64]   ->  native/build-cross/<arch>/mlds_native.node
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=$REPO/native/build-cross
# Node's headers: the host's when it has them (the ABI of N-API is the same on every machine).
NODEDIR=${NODEDIR:-$([ -f /usr/include/node/node.h ] && echo /usr || dirname "$(dirname "$(readlink -f "$(command -v node)")")")}

build() {
  local arch=$1 triplet gyp want
  case $arch in
    armhf) triplet=arm-linux-gnueabihf; gyp=arm; want='ARM, EABI5' ;;
    aarch64) triplet=aarch64-linux-gnu; gyp=arm64; want='ARM aarch64' ;;
    *) echo "cross: unknown architecture $arch (armhf, aarch64)" >&2; return 64 ;;
  esac
  local work=$OUT/$arch
  rm -rf "$work"; mkdir -p "$work/tree"
  cp -a "$REPO/native/binding.gyp" "$REPO/native/package.json" "$REPO/native/src" "$REPO/native/node_modules" "$work/tree/"
  local t0=$SECONDS
  # The copy has no node_modules/canvas above it: binding.gyp takes the version it is built against from here.
  ( cd "$work/tree" && MLDS_CANVAS_VERSION=$(node -p "require('$REPO/node_modules/canvas/package.json').version") CC=$triplet-gcc CXX=$triplet-g++ LINK=$triplet-g++ AR=$triplet-ar \
      npx --no-install node-gyp rebuild --arch="$gyp" --nodedir="$NODEDIR" >"$work/build.log" 2>&1 ) \
    || { tail -20 "$work/build.log"; echo "cross: $arch failed (see $work/build.log)" >&2; return 1; }
  cp "$work/tree/build/Release/mlds_native.node" "$work/mlds_native.node"
  rm -rf "$work/tree"
  local kind; kind=$(file -b "$work/mlds_native.node")
  case $kind in *"$want"*) ;; *) echo "cross: $arch built something else: $kind" >&2; return 1 ;; esac
  echo "cross: $arch in $((SECONDS - t0)) s: native/build-cross/$arch/mlds_native.node ($kind)"
}

[ -d "$REPO/native/node_modules/node-gyp" ] || (cd "$REPO/native" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
[ $# -gt 0 ] || set -- armhf aarch64
for a in "$@"; do build "$a"; done
