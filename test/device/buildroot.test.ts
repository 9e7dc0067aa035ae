// The BR2_EXTERNAL tree (buildroot/) checked without a Buildroot checkout: its Kconfig parsed by
// kconfiglib against the Buildroot symbols it names (listed below with where Buildroot defines
// them), its .mk read by GNU make with the package infrastructure stubbed, every MLDS_*
// variable a name the generic-package infrastructure knows or a helper the file itself uses,
// the users and permissions tables in their syntax, and every file the install copies present.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';
import { PYTHON } from './listener.js';
import { skipReason } from '../helpers/skip.js';

const TREE = join(REPO, 'buildroot');
const MK = join(TREE, 'package', 'mlds', 'mlds.mk');

/**
 * Buildroot's Kconfig symbols the tree may use, each with the file that defines it, as read in
 * Buildroot's repository at commit e991fa071605a78c17adba2ed26e07c3b8c95583 (2026-08-22).
 */
const BUILDROOT_SYMBOLS: Record<string, { kind: 'bool'; source: string }> = Object.fromEntries(
  (
    [
      ['BR2_USE_MMU', 'arch/Config.in'],
      ['BR2_STATIC_LIBS', 'Config.in'],
      ['BR2_HOST_GCC_AT_LEAST_10', 'Config.in'],
      ['BR2_INSTALL_LIBSTDCPP', 'toolchain/Config.in'],
      ['BR2_TOOLCHAIN_GCC_AT_LEAST_10', 'toolchain/Config.in'],
      ['BR2_TOOLCHAIN_HAS_SYNC_4', 'toolchain/Config.in'],
      ['BR2_TOOLCHAIN_HAS_THREADS_NPTL', 'toolchain/Config.in'],
      ['BR2_USE_WCHAR', 'toolchain/Config.in'],
      ['BR2_PACKAGE_NODEJS', 'package/nodejs/Config.in'],
      ['BR2_PACKAGE_NODEJS_ARCH_SUPPORTS', 'package/nodejs/Config.in'],
      ['BR2_PACKAGE_CAIRO', 'package/cairo/Config.in'],
      ['BR2_PACKAGE_CAIRO_PNG', 'package/cairo/Config.in'],
      ['BR2_PACKAGE_PANGO', 'package/pango/Config.in'],
      ['BR2_PACKAGE_JPEG', 'package/jpeg/Config.in'],
      ['BR2_PACKAGE_GIFLIB', 'package/giflib/Config.in'],
      ['BR2_PACKAGE_FONTCONFIG', 'package/fontconfig/Config.in'],
      ['BR2_PACKAGE_DEJAVU', 'package/dejavu/Config.in'],
      ['BR2_PACKAGE_DEJAVU_SANS', 'package/dejavu/Config.in'],
      ['BR2_PACKAGE_IPROUTE2', 'package/iproute2/Config.in'],
      ['BR2_PACKAGE_FFMPEG', 'package/ffmpeg/Config.in'],
      ['BR2_PACKAGE_FFMPEG_ARCH_SUPPORTS', 'package/ffmpeg/Config.in'],
      ['BR2_PACKAGE_FFMPEG_FFMPEG', 'package/ffmpeg/Config.in'],
      ['BR2_PACKAGE_LIBRSVG', 'package/librsvg/Config.in'],
      ['BR2_PACKAGE_HOST_RUSTC_TARGET_ARCH_SUPPORTS', 'package/rustc/Config.in.host'],
    ] as const
  ).map(([name, source]) => [name, { kind: 'bool', source }]),
);

/**
 * What the generic-package infrastructure reads from a package's .mk, after "LIBFOO_": the
 * reference in docs/manual/adding-packages-generic.adoc, the hooks in
 * docs/manual/adding-packages-hooks.adoc, and OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS from
 * docs/manual/using-buildroot-development.adoc (package/pkg-generic.mk applies it to `local`
 * sources too), same commit.
 */
const GENERIC_PACKAGE_VARIABLES = new Set([
  'VERSION',
  'SOURCE',
  'PATCH',
  'SITE',
  'DL_OPTS',
  'EXTRA_DOWNLOADS',
  'SITE_METHOD',
  'GIT_SUBMODULES',
  'GIT_LFS',
  'SVN_EXTERNALS',
  'STRIP_COMPONENTS',
  'EXCLUDES',
  'DEPENDENCIES',
  'EXTRACT_DEPENDENCIES',
  'PATCH_DEPENDENCIES',
  'PROVIDES',
  'INSTALL_STAGING',
  'INSTALL_TARGET',
  'INSTALL_IMAGES',
  'CONFIG_SCRIPTS',
  'DEVICES',
  'PERMISSIONS',
  'USERS',
  'LICENSE',
  'LICENSE_FILES',
  'REDISTRIBUTE',
  'FLAT_STACKSIZE',
  'BIN_ARCH_EXCLUDE',
  'IGNORE_CVES',
  'CPE_ID',
  'CPE_ID_PREFIX',
  'CPE_ID_VENDOR',
  'CPE_ID_PRODUCT',
  'CPE_ID_VERSION',
  'CPE_ID_UPDATE',
  'CPE_ID_VALID',
  'ACTUAL_SOURCE_TARBALL',
  'ACTUAL_SOURCE_SITE',
  'EXTRACT_CMDS',
  'CONFIGURE_CMDS',
  'BUILD_CMDS',
  'INSTALL_STAGING_CMDS',
  'INSTALL_TARGET_CMDS',
  'INSTALL_IMAGES_CMDS',
  'INSTALL_INIT_SYSV',
  'INSTALL_INIT_OPENRC',
  'INSTALL_INIT_SYSTEMD',
  'HELP_CMDS',
  'LINUX_CONFIG_FIXUPS',
  'BUSYBOX_CONFIG_FIXUPS',
  ...[
    'DOWNLOAD',
    'EXTRACT',
    'RSYNC',
    'PATCH',
    'CONFIGURE',
    'BUILD',
    'INSTALL',
    'INSTALL_STAGING',
    'INSTALL_TARGET',
    'INSTALL_IMAGES',
    'LEGAL_INFO',
  ].flatMap((s) => [`PRE_${s}_HOOKS`, `POST_${s}_HOOKS`]),
  'TARGET_FINALIZE_HOOKS',
  'OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS',
]);

/**
 * Make variables of Buildroot (not the package's own) the .mk may use, with where they are
 * defined, same commit: package/Makefile.in (HOST_MAKE_ENV, TARGET_MAKE_ENV, INSTALL),
 * Makefile (HOST_DIR, STAGING_DIR, TARGET_DIR, BUILD_DIR), package/nodejs/nodejs.mk
 * (NODEJS_BIN_ENV; NODEJS_CPU in releases before the nodejs-src split),
 * package/nodejs/nodejs-src/nodejs-src.mk (NODEJS_SRC_CPU), package/pkg-generic.mk (@D) and the
 * BR2_EXTERNAL mechanism (BR2_EXTERNAL_MLDS_PATH, from external.desc's name).
 */
const BUILDROOT_MAKE_VARIABLES = new Set([
  'HOST_MAKE_ENV',
  'TARGET_MAKE_ENV',
  'INSTALL',
  'HOST_DIR',
  'STAGING_DIR',
  'TARGET_DIR',
  'BUILD_DIR',
  'NODEJS_BIN_ENV',
  'NODEJS_CPU',
  'NODEJS_SRC_CPU',
  '@D',
  'BR2_EXTERNAL_MLDS_PATH',
]);

/**
 * Packages MLDS_DEPENDENCIES may name, each a folder (or a virtual package) under Buildroot's package/, same commit.
 */
const BUILDROOT_PACKAGES = new Set([
  'nodejs',
  'host-nodejs',
  'host-pkgconf',
  'cairo',
  'pango',
  'jpeg',
  'giflib',
  'librsvg',
]);

const kconfiglib = spawnSync(PYTHON, ['-c', 'import kconfiglib'], { encoding: 'utf8' });
const noKconfiglib = skipReason(
  kconfiglib.status === 0 ? undefined : 'python3-kconfiglib is not installed (make test-deps installs it)',
);
const noMake = skipReason(spawnSync('make', ['--version']).error ? 'GNU make is not installed' : undefined);

test('external.desc names the tree, external.mk and Config.in reach the package through BR2_EXTERNAL_MLDS_PATH', () => {
  const desc = readFileSync(join(TREE, 'external.desc'), 'utf8');
  assert.match(desc, /^name: MLDS$/m, 'the name makes BR2_EXTERNAL_MLDS_PATH');
  assert.match(desc, /^desc: .+$/m);
  assert.match(
    readFileSync(join(TREE, 'external.mk'), 'utf8'),
    /^include \$\(sort \$\(wildcard \$\(BR2_EXTERNAL_MLDS_PATH\)\/package\/\*\/\*\.mk\)\)$/m,
  );
  const sources = [
    ...readFileSync(join(TREE, 'Config.in'), 'utf8').matchAll(/^\s*source "\$BR2_EXTERNAL_MLDS_PATH\/(.+)"$/gm),
  ].map((m) => m[1]);
  assert.deepEqual(sources, ['package/mlds/Config.in']);
  for (const s of sources) assert.ok(existsSync(join(TREE, s)), s);
});

test(
  'Kconfig: parses without a warning, names only real Buildroot symbols, and mlds selects what node-canvas needs',
  { skip: noKconfiglib },
  () => {
    const symbols = Object.fromEntries(Object.keys(BUILDROOT_SYMBOLS).map((n) => [n, 'bool']));
    const r = spawnSync(PYTHON, [join(REPO, 'test/device/fixtures/kconfig-check.py'), TREE, JSON.stringify(symbols)], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      warnings: string[];
      ours: string[];
      visibleWithDeps: number;
      values: Record<string, string>;
    };
    assert.deepEqual(out.warnings, [], 'kconfiglib warns of every undefined symbol and syntax slip');
    assert.deepEqual(out.ours, [
      'BR2_PACKAGE_MLDS',
      'BR2_PACKAGE_MLDS_EXAMPLE_CONFIG',
      'BR2_PACKAGE_MLDS_MEDIA',
      'BR2_PACKAGE_MLDS_SVG',
    ]);
    // Every BR2_ name in the file is either the tree's own or in the list above.
    const named = new Set(readFileSync(join(TREE, 'package/mlds/Config.in'), 'utf8').match(/BR2_[A-Z0-9_]+/g));
    for (const n of named)
      assert.ok(
        out.ours.includes(n) || n in BUILDROOT_SYMBOLS,
        `${n} is neither the tree's nor a known Buildroot symbol`,
      );
    assert.equal(out.visibleWithDeps, 2, "mlds can be enabled once the toolchain meets nodejs's requirements");
    for (const n of [
      'BR2_PACKAGE_MLDS',
      'BR2_PACKAGE_NODEJS',
      'BR2_PACKAGE_CAIRO',
      'BR2_PACKAGE_CAIRO_PNG',
      'BR2_PACKAGE_PANGO',
      'BR2_PACKAGE_JPEG',
      'BR2_PACKAGE_GIFLIB',
      'BR2_PACKAGE_DEJAVU_SANS',
      'BR2_PACKAGE_IPROUTE2',
      'BR2_PACKAGE_MLDS_EXAMPLE_CONFIG',
      'BR2_PACKAGE_MLDS_MEDIA',
      'BR2_PACKAGE_FFMPEG',
      'BR2_PACKAGE_FFMPEG_FFMPEG',
    ])
      assert.equal(out.values[n], 'y', n);
    assert.equal(out.values.BR2_PACKAGE_MLDS_SVG, 'n', 'SVG (librsvg, Rust) only when asked for');
  },
);

/** The .mk read by GNU make with generic-package stubbed: every MLDS_* variable and its expanded value. */
function makeVariables(extra = ''): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'mlds-br-'));
  try {
    const stub = join(dir, 'stub.mk');
    writeFileSync(
      stub,
      [
        `BR2_EXTERNAL_MLDS_PATH := ${TREE}`,
        'generic-package :=',
        extra,
        `include ${join(TREE, 'external.mk')}`,
        '$(foreach v,$(sort $(filter MLDS_%,$(.VARIABLES))),$(info $(v)=$($(v))))',
        'all: ;',
      ].join('\n') + '\n',
    );
    // make turns the environment into variables too: a test run's own MLDS_* (MLDS_TEST_EMULATION,
    // MLDS_CHROMIUM) would read as the file's.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MLDS_')));
    const r = spawnSync('make', ['-s', '-f', stub], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', 'make has nothing to say about the file');
    const vars = new Map<string, string>();
    let last = '';
    for (const line of r.stdout.replace(/\n$/, '').split('\n')) {
      const m = /^(MLDS_[A-Z0-9_]+)=(.*)$/.exec(line);
      if (m) {
        vars.set(m[1], m[2]);
        last = m[1];
      } else if (last) vars.set(last, `${vars.get(last)}\n${line}`);
    }
    return vars;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test(
  "mlds.mk: GNU make reads it, every MLDS_ name is the infrastructure's or a helper it uses, Buildroot names are real",
  { skip: noMake },
  () => {
    const text = readFileSync(MK, 'utf8');
    const vars = makeVariables();
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version as string;
    assert.equal(vars.get('MLDS_VERSION'), version, 'the version read from package.json');
    const own = [...vars.keys()];
    for (const v of own) {
      const suffix = v.slice('MLDS_'.length);
      const used = new RegExp(`\\$\\(${v}\\)`).test(text);
      assert.ok(
        GENERIC_PACKAGE_VARIABLES.has(suffix) || used,
        `${v} is neither a generic-package variable nor used in the file (a misspelling?)`,
      );
    }
    for (const needed of [
      'SITE',
      'SITE_METHOD',
      'VERSION',
      'LICENSE',
      'DEPENDENCIES',
      'BUILD_CMDS',
      'INSTALL_TARGET_CMDS',
      'INSTALL_INIT_SYSTEMD',
      'USERS',
      'PERMISSIONS',
    ]) {
      assert.ok(vars.has(`MLDS_${needed}`), `MLDS_${needed}`);
    }
    assert.equal(vars.get('MLDS_SITE_METHOD'), 'local');
    for (const m of text.matchAll(/\$\(([A-Z0-9_@]+)\)/g)) {
      const name = m[1];
      if (name.startsWith('MLDS_') || name.startsWith('BR2_PACKAGE_MLDS')) continue;
      assert.ok(
        BUILDROOT_MAKE_VARIABLES.has(name) || name in BUILDROOT_SYMBOLS,
        `$(${name}) is not a Buildroot variable this test knows`,
      );
    }
    const deps = makeVariables('BR2_PACKAGE_MLDS_SVG := y').get('MLDS_DEPENDENCIES')!.trim().split(/\s+/);
    for (const d of deps) assert.ok(BUILDROOT_PACKAGES.has(d), `${d} is not a Buildroot package`);
    assert.ok(deps.includes('librsvg'));
    assert.ok(!makeVariables().get('MLDS_DEPENDENCIES')!.includes('librsvg'));
    assert.match(text, /\n\$\(eval \$\(generic-package\)\)\n$/, 'ends with the generic-package call');
    assert.match(text, /^#{80}\n#\n# mlds\n#\n#{80}\n/, 'the header every Buildroot .mk has');
  },
);

test(
  'mlds.mk: users (makeusers syntax) and permissions (makedevs syntax) tables, and the unit agrees with them',
  { skip: noMake },
  () => {
    const vars = makeVariables();
    const users = vars
      .get('MLDS_USERS')!
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    assert.equal(users.length, 1);
    const f = users[0].split(/\s+/);
    // username uid group gid password home shell groups comment...
    assert.ok(f.length >= 9, users[0]);
    const [name, uid, group, gid, password, home, shell, groups] = f;
    assert.deepEqual(
      [name, uid, group, gid, password, home, shell],
      ['mlds', '-1', 'mlds', '-1', '*', '/var/lib/mlds', '-'],
    );
    const unit = readFileSync(join(REPO, 'systemd/mlds.service'), 'utf8');
    assert.match(unit, /^User=mlds$/m);
    assert.deepEqual(groups.split(',').sort(), /^SupplementaryGroups=(.+)$/m.exec(unit)![1].split(' ').sort());
    for (const line of vars
      .get('MLDS_PERMISSIONS')!
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      const p = line.split(/\s+/);
      assert.equal(p.length, 10, line);
      assert.match(p[1], /^[fFdr]$/, line);
      assert.match(p[2], /^(-1|[0-7]{3,4})$/, line);
      assert.deepEqual(p.slice(5), ['-', '-', '-', '-', '-'], line);
    }
  },
);

test(
  'every file the install copies from the checkout is there (build products aside); the unit starts what is ' +
    'installed',
  () => {
    const text = readFileSync(MK, 'utf8');
    const built = /^(dist|node_modules|native\/build)(\/|$)/;
    const paths = new Set([...text.matchAll(/\$\(@D\)\/([\w./-]+)/g)].map((m) => m[1].replace(/\/\.?$/, '')));
    for (const p of paths) if (!built.test(p)) assert.ok(existsSync(join(REPO, p)), `${p} is copied but missing`);
    assert.ok(paths.has('systemd/mlds.service') && paths.has('docs/device.md') && paths.has('examples/config.json'));
    const unit = readFileSync(join(REPO, 'systemd/mlds.service'), 'utf8');
    assert.match(unit, /^ExecStart=\/usr\/bin\/node \/opt\/mlds\/dist\/launch\.cjs /m);
    assert.match(text, /cp -a .*\$\(@D\)\/dist .*\$\(TARGET_DIR\)\/opt\/mlds\//);
    assert.match(text, /\$\(TARGET_DIR\)\/usr\/lib\/systemd\/system\/mlds\.service/);
    // The loader's default path (src/native/helper.ts) below /opt/mlds.
    assert.match(text, /\$\(TARGET_DIR\)\/opt\/mlds\/native\/build\/Release\//);
  },
);
