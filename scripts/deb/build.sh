#!/bin/bash
# `make deb`: build/mlds_<version>_<arch>.deb with dpkg-deb. /opt/mlds holds dist/, the production
# node_modules, the native helper, fonts/, images/ and Node.js for the architecture (the npm
# registry's node-linux-<arch> package: Debian 12's nodejs is 18, the service needs 20); the
# unit, sysusers.d and tmpfiles.d entries, the example configuration in /etc/mlds (conffiles)
# and maintainer scripts from packaging/.
#
#   scripts/deb/build.sh amd64|arm64 [OUTDIR]
# Native code for arm64: node-canvas from the arm64 root of `make test-arm64` (scripts/arm64/run.sh
# root node tree deps), compiled there under qemu-user, and the native helper from `make cross`;
# for amd64 both from this checkout's own node_modules and native/build.
# DEB_COMPRESS and DEB_LEVEL are dpkg-deb's -Z and -z: gzip by default (a controller, and an image
# build under qemu-user, unpacks it faster than xz), level 1 for the quick test build.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
ARCH=${1:?usage: build.sh amd64|arm64 [OUTDIR]}
OUTDIR=$(mkdir -p "${2:-$REPO/build}" && cd "${2:-$REPO/build}" && pwd)
NODE_VERSION=${DEB_NODE:-$(node -p process.versions.node)}
VERSION=$(node -p "require('$REPO/package.json').version")
CACHE=$REPO/.vm/deb
case $ARCH in
  amd64) NODE_ARCH=x64; ELF='x86-64'; STRIP=strip
         CANVAS=$REPO/node_modules/canvas/build/Release/canvas.node
         NATIVE=$REPO/native/build/Release/mlds_native.node ;;
  arm64) NODE_ARCH=arm64; ELF='ARM aarch64'; STRIP=aarch64-linux-gnu-strip
         A64=${ARM64_WORK:-$REPO/.vm/arm64}/root/opt/mlds
         CANVAS=$A64/node_modules/canvas/build/Release/canvas.node
         # `make cross`'s helper (Debian's cross compiler, seconds), else the one built in the root.
         NATIVE=$REPO/native/build-cross/aarch64/mlds_native.node
         [ -f "$NATIVE" ] || NATIVE=$A64/native/build/Release/mlds_native.node ;;
  *) echo "deb: unknown architecture $ARCH (amd64, arm64)" >&2; exit 64 ;;
esac
for f in "$REPO/dist/cli.js" "$REPO/dist/launch.cjs" "$REPO/dist/bundle/mlds.cjs" "$CANVAS" "$NATIVE"; do
  [ -f "$f" ] || { echo "deb: $f is missing (make build; for arm64 make deb-arm64-native)" >&2; exit 1; }
done

T0=$SECONDS
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/mlds-deb.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
P=$STAGE/pkg
APP=$P/opt/mlds
mkdir -p "$APP/native/build/Release" "$APP/node/bin" "$APP/docs" "$P/DEBIAN" "$P/etc/mlds" \
  "$P/lib/systemd/system" "$P/usr/lib/sysusers.d" "$P/usr/lib/tmpfiles.d" "$P/usr/bin" \
  "$P/usr/share/doc/mlds" "$P/usr/share/lintian/overrides"

# The service. Source maps stay: a stack trace on a controller then names the TypeScript line.
cp -a "$REPO/dist" "$REPO/fonts" "$REPO/images" "$REPO/package.json" "$REPO/package-lock.json" "$APP/"
cp "$REPO/docs/device.md" "$APP/docs/"
cp "$NATIVE" "$APP/native/build/Release/mlds_native.node"

# Production node_modules: this checkout's, pruned of devDependencies (no download), with the
# architecture's node-canvas and only the architecture's serialport prebuilds.
cp -a "$REPO/node_modules/." "$APP/node_modules/"
(cd "$APP" && npm prune --omit=dev --ignore-scripts --offline --no-audit --no-fund --loglevel=error >/dev/null)
rm -rf "$APP/node_modules/canvas/build" "$APP/node_modules/.package-lock.json" "$APP/package-lock.json"
mkdir -p "$APP/node_modules/canvas/build/Release"
cp "$CANVAS" "$APP/node_modules/canvas/build/Release/canvas.node"
PB=$APP/node_modules/@serialport/bindings-cpp/prebuilds
[ -d "$PB" ] && find "$PB" -mindepth 1 -maxdepth 1 ! -name "linux-$NODE_ARCH" -exec rm -rf {} +
# Nothing executable for another machine or C library (musl), nothing a package must not hold (lintian).
find "$APP/node_modules" \( -name '*.exe' -o -name '*.dll' -o -name '*.dylib' -o -name '*.musl.node' -o -name '.npmignore' \
  -o -name '.eslintrc*' -o -name '.gitattributes' -o -name '.gitignore' \) -type f -delete
while IFS= read -r f; do
  case $(file -b "$f") in *ELF*"$ELF"*) ;; *ELF*) echo "deb: dropping $f (another machine's)"; rm -f "$f" ;; esac
done < <(find "$APP" -type f \( -name '*.node' -o -name '*.so*' \))

# Node.js for the architecture, from the npm registry (cached per version).
mkdir -p "$CACHE"
TGZ=$CACHE/node-linux-$NODE_ARCH-$NODE_VERSION.tgz
[ -f "$TGZ" ] || (cd "$CACHE" && npm pack --silent "node-linux-$NODE_ARCH@$NODE_VERSION" >/dev/null)
tar xzf "$TGZ" -C "$STAGE" package/bin/node package/LICENSE
install -m 0755 "$STAGE/package/bin/node" "$APP/node/bin/node"
install -m 0644 "$STAGE/package/LICENSE" "$APP/node/LICENSE"
case $(file -b "$APP/node/bin/node") in *"$ELF"*) ;; *) echo "deb: node-linux-$NODE_ARCH is not $ELF" >&2; exit 1 ;; esac

# The unit as shipped, but with the package's own Node.js (Debian's /usr/bin/node is 18).
sed 's#^ExecStart=/usr/bin/node #ExecStart=/opt/mlds/node/bin/node #' "$REPO/systemd/mlds.service" >"$P/lib/systemd/system/mlds.service"
grep -q '^ExecStart=/opt/mlds/node/bin/node ' "$P/lib/systemd/system/mlds.service"
# Marks a RAUC root slot good; shipped disabled, the A/B image enables it (docs/device.md).
install -m 0644 "$REPO/systemd/mlds-mark-good.service" "$P/lib/systemd/system/mlds-mark-good.service"
install -m 0644 "$REPO/packaging/mlds.sysusers" "$P/usr/lib/sysusers.d/mlds.conf"
install -m 0644 "$REPO/packaging/mlds.tmpfiles" "$P/usr/lib/tmpfiles.d/mlds.conf"
install -m 0755 "$REPO/packaging/mlds.sh" "$P/usr/bin/mlds"

# The example configuration; its 1080p LCD on whatever framebuffer the controller has (no
# `output`: fbdev when /dev/fb0 exists, else virtual).
node -e '
  const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  delete c.displays.lcd1.output;
  process.stdout.write(JSON.stringify(c, null, 2) + "\n");' "$REPO/examples/config.json" >"$P/etc/mlds/config.json"
cp -a "$REPO/examples/images" "$P/etc/mlds/images"
(cd "$P" && find etc -type f | sort | sed 's#^#/#') >"$P/DEBIAN/conffiles"

# Documentation: the machine-readable copyright (with the bundled Node.js licence) and a changelog.
install -m 0644 "$REPO/packaging/copyright" "$P/usr/share/doc/mlds/copyright"
printf 'mlds (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- mlds maintainers <mlds@example.org>  %s\n' \
  "$VERSION" "$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(git -C "$REPO" log -1 --format=%ct 2>/dev/null || date +%s)}")" \
  | gzip -9n >"$P/usr/share/doc/mlds/changelog.gz"
install -m 0644 "$REPO/packaging/lintian-overrides" "$P/usr/share/lintian/overrides/mlds"

for s in postinst prerm postrm; do install -m 0755 "$REPO/packaging/$s" "$P/DEBIAN/$s"; done
# Node.js scripts (the CLI, npm packages' own tools) lose their `#!/usr/bin/env node` line, blanked so
# that source maps still match: nothing runs them as commands (the unit and /usr/bin/mlds name the
# package's Node.js), and Debian's /usr/bin/node, which the line would find, is 18 or absent.
grep -rlZ -m1 '^#!.*node' "$APP/dist" "$APP/node_modules" 2>/dev/null | xargs -0 -r sed -i '1s|^#!.*node.*$||'
# Odd modes from npm tarballs: folders 0755; files 0644, or 0755 for a shell script or a program;
# shared objects (*.node) 0644, stripped as a Debian build strips them.
find "$P" -type d -exec chmod 0755 {} +
find "$P" -type f -exec chmod 0644 {} +
while IFS= read -r -d '' f; do
  case $(head -c 4 "$f" | od -An -c | tr -d ' ') in '#!/'*|'177ELF') chmod 0755 "$f" ;; esac
done < <(find "$P" -type f ! -name '*.node' ! -name '*.js' ! -name '*.cjs' ! -name '*.mjs' ! -name '*.ts' ! -name '*.md' -print0)
find "$P" -type f -name '*.node' -exec "$STRIP" --remove-section=.comment --remove-section=.note --strip-unneeded {} +
"$STRIP" --remove-section=.comment --remove-section=.note "$APP/node/bin/node"
chmod 0755 "$P"/DEBIAN/post* "$P"/DEBIAN/prerm "$P/usr/bin/mlds"
(cd "$P" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) >"$P/DEBIAN/md5sums"

{
  echo "Package: mlds"
  echo "Version: $VERSION"
  echo "Architecture: $ARCH"
  echo "Maintainer: mlds maintainers <mlds@example.org>"
  echo "Installed-Size: $(du -sk --exclude=DEBIAN "$P" | cut -f1)"
  echo "Depends: $(grep -v '^#' "$REPO/packaging/depends" | paste -sd, | sed 's/,/, /g')"
  # Video and audio areas (ffmpeg); announcements read aloud (espeak-ng, played by sox).
  echo "Recommends: ffmpeg, espeak-ng, sox, libsox-fmt-alsa"
  # Web areas (chromium); readout buttons on GPIO lines (gpiod's gpiomon).
  echo "Suggests: chromium, gpiod"
  echo "Section: misc"
  echo "Priority: optional"
  cat "$REPO/packaging/description"
} >"$P/DEBIAN/control"

DEB=$OUTDIR/mlds_${VERSION}_${ARCH}.deb
dpkg-deb --root-owner-group -Z"${DEB_COMPRESS:-gzip}" ${DEB_LEVEL:+-z$DEB_LEVEL} --build "$P" "$DEB" >/dev/null
echo "deb: $DEB ($(du -h "$DEB" | cut -f1), installed $(du -sh --exclude=DEBIAN "$P" | cut -f1)) in $((SECONDS - T0)) s"
