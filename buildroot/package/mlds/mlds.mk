################################################################################
#
# mlds
#
################################################################################

# The service is built from the checkout this BR2_EXTERNAL tree lives in.
MLDS_SITE = $(BR2_EXTERNAL_MLDS_PATH)/..
MLDS_SITE_METHOD = local
MLDS_VERSION = $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' $(BR2_EXTERNAL_MLDS_PATH)/../package.json)
MLDS_LICENSE = MIT
MLDS_LICENSE_FILES = fonts/LICENSE-DejaVu.txt fonts/LICENSE-Lohit-Devanagari.txt
# What a developer's checkout holds besides the sources: host builds, caches, VM images.
MLDS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	--exclude node_modules --exclude dist --exclude native/build \
	--exclude .vm --exclude state --exclude logs --exclude mlds-test
MLDS_DEPENDENCIES = host-nodejs nodejs host-pkgconf cairo pango jpeg giflib

ifeq ($(BR2_PACKAGE_MLDS_SVG),y)
MLDS_DEPENDENCIES += librsvg
endif

# Host npm for the JavaScript (TypeScript runs on the build machine); for what is compiled,
# package/nodejs's NODEJS_BIN_ENV (the target's CC/CXX, the target Node's headers in staging,
# build from source rather than fetch prebuilt binaries) with the target's CPU.
# Named NODEJS_CPU in older Buildroot releases, NODEJS_SRC_CPU since nodejs-src/nodejs-bin.
MLDS_CPU = $(or $(NODEJS_CPU),$(NODEJS_SRC_CPU))
MLDS_HOST_NPM = $(HOST_MAKE_ENV) npm_config_cache=$(BUILD_DIR)/.npm-cache $(HOST_DIR)/bin/npm
MLDS_TARGET_ENV = $(NODEJS_BIN_ENV) npm_config_arch=$(MLDS_CPU) npm_config_target_arch=$(MLDS_CPU) \
	npm_config_with_rsvg=$(if $(BR2_PACKAGE_MLDS_SVG),true,no)

define MLDS_BUILD_CMDS
	cd $(@D) && $(MLDS_HOST_NPM) ci --ignore-scripts --no-audit --no-fund
	cd $(@D) && $(HOST_DIR)/bin/node node_modules/typescript/bin/tsc -p tsconfig.json
	cd $(@D) && $(HOST_DIR)/bin/node scripts/bundle/build.mjs
	cd $(@D) && $(TARGET_MAKE_ENV) $(MLDS_TARGET_ENV) $(HOST_DIR)/bin/npm rebuild canvas
	cd $(@D)/native && $(MLDS_HOST_NPM) ci --ignore-scripts --no-audit --no-fund
	cd $(@D)/native && $(TARGET_MAKE_ENV) $(MLDS_TARGET_ENV) $(HOST_DIR)/bin/node \
		node_modules/node-gyp/bin/node-gyp.js rebuild --arch=$(MLDS_CPU) --nodedir=$(STAGING_DIR)/usr
	cd $(@D) && $(MLDS_HOST_NPM) prune --omit=dev --ignore-scripts --no-audit --no-fund
endef

define MLDS_INSTALL_TARGET_CMDS
	rm -rf $(TARGET_DIR)/opt/mlds
	mkdir -p $(TARGET_DIR)/opt/mlds/native/build/Release $(TARGET_DIR)/opt/mlds/docs
	cp -a $(@D)/package.json $(@D)/dist $(@D)/node_modules $(@D)/fonts $(@D)/images $(TARGET_DIR)/opt/mlds/
	$(INSTALL) -m 0755 $(@D)/native/build/Release/mlds_native.node $(TARGET_DIR)/opt/mlds/native/build/Release/
	$(INSTALL) -m 0644 $(@D)/docs/device.md $(TARGET_DIR)/opt/mlds/docs/
	$(INSTALL) -d -m 0750 $(TARGET_DIR)/etc/mlds
	$(MLDS_INSTALL_EXAMPLE_CONFIG)
endef

ifeq ($(BR2_PACKAGE_MLDS_EXAMPLE_CONFIG),y)
define MLDS_INSTALL_EXAMPLE_CONFIG
	test -f $(TARGET_DIR)/etc/mlds/config.json || \
		$(INSTALL) -m 0640 $(@D)/examples/config.json $(TARGET_DIR)/etc/mlds/config.json
	mkdir -p $(TARGET_DIR)/etc/mlds/images
	cp -an $(@D)/examples/images/. $(TARGET_DIR)/etc/mlds/images/
endef
endif

define MLDS_INSTALL_INIT_SYSTEMD
	$(INSTALL) -D -m 0644 $(@D)/systemd/mlds.service \
		$(TARGET_DIR)/usr/lib/systemd/system/mlds.service
endef

# video: /dev/fb* and the backlight; dialout: serial light sensors; audio: ALSA.
define MLDS_USERS
	mlds -1 mlds -1 * /var/lib/mlds - video,dialout,audio mlds display control service
endef

# The service writes its configuration (/load_config) and the networkd folder (/setethernetconfig).
define MLDS_PERMISSIONS
	/etc/mlds r -1 mlds mlds - - - - -
	/etc/systemd/network d 2775 root mlds - - - - -
endef

$(eval $(generic-package))
