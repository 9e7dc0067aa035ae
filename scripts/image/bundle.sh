#!/bin/bash
# `make bundle`: a RAUC bundle (format verity: the squashfs payload is checked block by block as
# it is read, and the signature covers its root hash) holding a root slot's ext4 file system,
# for compatible `mlds-arm64` (/etc/rauc/system.conf in the image), signed with BUNDLE_KEY and
# BUNDLE_CERT (default: dev-keys/ from scripts/image/keys.sh). The payload is squashfs with
# zstd: a bundle is unpacked by a controller's CPU, and zstd reads back fastest.
#
#   scripts/image/bundle.sh ROOTFS.ext4 VERSION OUT.raucb
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
ROOTFS=$(readlink -f "${1:?usage: bundle.sh ROOTFS.ext4 VERSION OUT.raucb}")
VERSION=${2:?version}
OUT=$(readlink -f "${3:?output}")
KEY=${BUNDLE_KEY:-$REPO/dev-keys/signing.key.pem}
CERT=${BUNDLE_CERT:-$REPO/dev-keys/signing.cert.pem}
for f in "$ROOTFS" "$KEY" "$CERT"; do [ -f "$f" ] || { echo "bundle: $f is missing" >&2; exit 1; }; done
T0=$SECONDS
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mlds-bundle.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
mkdir "$DIR/content"
cp --sparse=always "$ROOTFS" "$DIR/content/root.ext4"
cat >"$DIR/content/manifest.raucm" <<MANIFEST
[update]
compatible=mlds-arm64
version=$VERSION
description=mlds $VERSION for arm64 controllers

[bundle]
format=verity

[image.rootfs]
filename=root.ext4
MANIFEST
rm -f "$OUT"
rauc bundle --cert="$CERT" --key="$KEY" --mksquashfs-args="-comp zstd" "$DIR/content" "$OUT" >/dev/null
echo "bundle: $OUT ($(du -h "$OUT" | cut -f1), version $VERSION) in $((SECONDS - T0)) s"
