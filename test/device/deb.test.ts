// The Debian package (`make deb`, scripts/deb/build.sh): an amd64 build of this checkout (gzip -1,
// about a minute) is inspected with dpkg-deb, unpacked into a scratch folder where its own Node.js
// runs its CLI against its own example configuration (so the pruned node_modules suffice), every
// shared library its ELF files need is checked to come from a package in Depends, and the
// maintainer scripts run in a private mount namespace (tmpfs over /run, /var and /etc) with the systemd tools replaced
// by stubs that log their arguments.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { REPO } from '../helpers/service.js';

const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const DEPENDS = readFileSync(join(REPO, 'packaging', 'depends'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'));

function why(): string | undefined {
  if (process.arch !== 'x64') return "the test builds the amd64 package from this checkout's own native builds";
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) return 'dist/ is not built (make build)';
  if (!existsSync(join(REPO, 'native', 'build', 'Release', 'mlds_native.node')))
    return 'the native helper is not built (make native)';
  return undefined;
}
const skip = why();

let work = '';
let deb = '';
let root = '';
const run = (cmd: string, args: string[], opts: { cwd?: string } = {}) =>
  execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });

before(() => {
  if (skip) return;
  work = mkdtempSync(join(tmpdir(), 'mlds-deb-'));
  const t0 = Date.now();
  const r = spawnSync(join(REPO, 'scripts', 'deb', 'build.sh'), ['amd64', work], {
    encoding: 'utf8',
    env: { ...process.env, DEB_COMPRESS: 'gzip', DEB_LEVEL: '1' },
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  console.log(`# ${r.stdout.trim()} (the test's build: ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  deb = join(work, `mlds_${VERSION}_amd64.deb`);
  root = join(work, 'root');
  run('dpkg-deb', ['-x', deb, root]);
});
after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('control fields: name, version, architecture, Depends from packaging/depends', { skip }, () => {
  const f = (field: string) => run('dpkg-deb', ['-f', deb, field]).trim();
  assert.equal(f('Package'), 'mlds');
  assert.equal(f('Version'), VERSION);
  assert.equal(f('Architecture'), 'amd64');
  assert.deepEqual(f('Depends').split(/,\s*/), DEPENDS);
  assert.equal(f('Recommends'), 'ffmpeg, espeak-ng, sox, libsox-fmt-alsa');
  assert.match(f('Installed-Size'), /^\d{5,}$/);
  assert.match(f('Description'), /^display control service/);
});

test(
  'contents: the service, its own Node.js, native code for amd64, no devDependencies, owned by root',
  { skip },
  () => {
    const lines = run('dpkg-deb', ['--contents', deb]).split('\n').filter(Boolean);
    const paths = new Map(
      lines.map((l) => {
        const m = /^(\S+) (\S+)\s+\d+ \S+ \S+ \.(\/\S*)/.exec(l)!;
        return [m[3].replace(/\/$/, '') || '/', { mode: m[1], owner: m[2] }];
      }),
    );
    for (const p of [
      '/opt/mlds/dist/cli.js',
      '/opt/mlds/package.json',
      '/opt/mlds/node/bin/node',
      '/opt/mlds/node/LICENSE',
      '/opt/mlds/native/build/Release/mlds_native.node',
      '/opt/mlds/node_modules/canvas/build/Release/canvas.node',
      '/opt/mlds/node_modules/koa/package.json',
      '/opt/mlds/fonts/DejaVuSans.ttf',
      '/opt/mlds/images/mlds-logo.png',
      '/opt/mlds/docs/device.md',
      '/lib/systemd/system/mlds.service',
      '/usr/lib/sysusers.d/mlds.conf',
      '/usr/lib/tmpfiles.d/mlds.conf',
      '/etc/mlds/config.json',
      '/etc/mlds/images/logo.png',
      '/usr/bin/mlds',
      '/usr/share/doc/mlds/copyright',
      '/usr/share/doc/mlds/changelog.gz',
    ]) {
      assert.ok(paths.has(p), `${p} is in the package`);
    }
    for (const dev of ['typescript', 'eslint', 'tsx', 'fast-check', 'autocannon', '@types/koa']) {
      assert.ok(!paths.has(`/opt/mlds/node_modules/${dev}`), `devDependency ${dev} is left out`);
    }
    assert.equal(paths.get('/opt/mlds/node/bin/node')!.mode, '-rwxr-xr-x');
    assert.equal(paths.get('/opt/mlds/node_modules/canvas/build/Release/canvas.node')!.mode, '-rw-r--r--');
    assert.deepEqual([...new Set([...paths.values()].map((v) => v.owner))], ['root/root']);
    // serialport's prebuilt binaries: only glibc Linux on this architecture.
    const prebuilds = [...paths.keys()].filter((p) => p.includes('/prebuilds/') && p.endsWith('.node'));
    assert.ok(
      prebuilds.length > 0 && prebuilds.every((p) => /\/linux-x64\/[^/]*glibc\.node$/.test(p)),
      prebuilds.join('\n'),
    );
  },
);

test('conffiles: every file under /etc, config.json among them', { skip }, () => {
  const conffiles = run('sh', ['-c', `dpkg-deb --ctrl-tarfile '${deb}' | tar xO ./conffiles`])
    .trim()
    .split('\n')
    .sort();
  const etc = run('find', ['etc', '-type', 'f'], { cwd: root })
    .trim()
    .split('\n')
    .map((p) => `/${p}`)
    .sort();
  assert.deepEqual(conffiles, etc);
  assert.ok(conffiles.includes('/etc/mlds/config.json'));
});

test("the unit is the repository's with the package's own Node.js in ExecStart", { skip }, () => {
  const shipped = readFileSync(join(root, 'lib/systemd/system/mlds.service'), 'utf8').split('\n');
  const repo = readFileSync(join(REPO, 'systemd/mlds.service'), 'utf8').split('\n');
  const differ = repo.map((l, i) => [l, shipped[i]]).filter(([a, b]) => a !== b);
  assert.equal(differ.length, 1, JSON.stringify(differ));
  assert.match(
    differ[0][1],
    /^ExecStart=\/opt\/mlds\/node\/bin\/node \/opt\/mlds\/dist\/launch\.cjs start --config \/etc\/mlds\/config\.json /,
  );
  assert.match(
    readFileSync(join(root, 'usr/lib/sysusers.d/mlds.conf'), 'utf8'),
    /^u mlds - .* \/var\/lib\/mlds \/usr\/sbin\/nologin$/m,
  );
});

test(
  'the packaged Node.js runs the packaged CLI on the packaged example configuration',
  { skip, timeout: 120_000 },
  () => {
    const node = join(root, 'opt/mlds/node/bin/node');
    assert.match(run(node, ['--version']), /^v(2\d|[3-9]\d)\./);
    assert.equal(run(node, [join(root, 'opt/mlds/dist/launch.cjs'), '--version']).trim(), VERSION);
    const out = join(work, 'previews');
    const r = spawnSync(
      node,
      [join(root, 'opt/mlds/dist/launch.cjs'), 'test', '--config', join(root, 'etc/mlds/config.json'), '--out', out],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const pngs = readdirSync(out).filter((f) => f.endsWith('.png'));
    assert.ok(pngs.length >= 2, `a preview per layout: ${pngs.join(' ')}`);
    const config = JSON.parse(readFileSync(join(root, 'etc/mlds/config.json'), 'utf8')) as {
      displays: Record<string, { output?: unknown }>;
    };
    assert.equal(config.displays.lcd1.output, undefined, 'the LCD takes /dev/fb0 when the controller has one');
  },
);

test("every shared library the package's ELF files need comes from a package in Depends", { skip }, () => {
  const elves = run('find', [
    join(root, 'opt'),
    '-type',
    'f',
    '(',
    '-name',
    '*.node',
    '-o',
    '-path',
    '*/node/bin/node',
    ')',
  ])
    .trim()
    .split('\n');
  assert.ok(elves.length >= 3, elves.join('\n'));
  const cache = run('ldconfig', ['-p']);
  const missing: string[] = [];
  for (const elf of elves) {
    for (const [, lib] of run('objdump', ['-p', elf]).matchAll(/^\s+NEEDED\s+(\S+)$/gm)) {
      const path = new RegExp(`^\\s+${lib.replace(/[.+]/g, '\\$&')} \\(libc6,x86-64\\) => (\\S+)$`, 'm').exec(
        cache,
      )?.[1];
      if (!path) {
        missing.push(`${elf}: ${lib} is not on this machine`);
        continue;
      }
      // Merged /usr: dpkg knows a library under one of its two names.
      const bare = path.replace(/^\/usr\//, '/');
      const owners = [bare, `/usr${bare}`]
        .map((p) => spawnSync('dpkg', ['-S', p], { encoding: 'utf8' }).stdout)
        .join('');
      const pkgs = owners
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(':')[0]);
      if (!pkgs.some((p) => DEPENDS.includes(p)))
        missing.push(`${elf.slice(root.length)}: ${lib} (${pkgs.join(', ') || 'no package'})`);
    }
  }
  assert.deepEqual(missing, []);
});

/** The maintainer scripts with stubs for the tools they call; returns the stubs' log. */
function maint(
  script: string,
  args: string[],
  opts: { systemd: boolean; wasEnabled?: boolean; seed?: string } = { systemd: true },
): string[] {
  const dir = mkdtempSync(join(work, 'maint-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const log = join(dir, 'log');
  for (const tool of [
    'systemd-sysusers',
    'systemd-tmpfiles',
    'deb-systemd-helper',
    'deb-systemd-invoke',
    'systemctl',
  ]) {
    const wasEnabled = `[ "$1 $2" = "--quiet was-enabled" ] && exit ${opts.wasEnabled === false ? 1 : 0}\n`;
    writeFileSync(
      join(bin, tool),
      `#!/bin/sh\necho "${tool} $*" >> ${log}\n${tool === 'deb-systemd-helper' ? wasEnabled : ''}exit 0\n`,
    );
    chmodSync(join(bin, tool), 0o755);
  }
  const ctrl = join(dir, 'ctrl');
  run('dpkg-deb', ['-e', deb, ctrl]);
  // /usr/bin/deb-systemd-helper is tested by path in postrm: the stub stands there too.
  const inner = `set -e
mount -t tmpfs tmpfs /run ${opts.systemd ? '&& mkdir -p /run/systemd/system' : ''}
mount -t tmpfs tmpfs /var && mkdir -p /var/lib/mlds /var/log/mlds && touch /var/lib/mlds/state.json /var/log/mlds/a.log
mount --bind ${bin}/deb-systemd-helper /usr/bin/deb-systemd-helper
mount -t tmpfs tmpfs /etc && mkdir /etc/mlds && touch /etc/mlds/written-by-load_config.json
${opts.seed ?? ''}
PATH=${bin}:/usr/sbin:/usr/bin:/sbin:/bin ${ctrl}/${script} ${args.join(' ')}
echo "after: $(find /var/lib/mlds /var/log/mlds /etc/mlds 2>&1 | tr '\\n' ' ')" >> ${log}
`;
  const r = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', inner], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${script} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return readFileSync(log, 'utf8').trim().split('\n');
}

const maintSkip =
  skip ??
  (process.getuid?.() !== 0
    ? 'the maintainer scripts run in a private mount namespace, which needs root'
    : undefined) ??
  (existsSync('/usr/bin/deb-systemd-helper')
    ? undefined
    : 'init-system-helpers is not installed (its /usr/bin/deb-systemd-helper is where the stub is mounted)');

test('install: the user and folders are made, the unit enabled and started', { skip: maintSkip }, () => {
  const log = maint('postinst', ['configure'], { systemd: true });
  assert.deepEqual(log.slice(0, -1), [
    'systemd-sysusers mlds.conf',
    'systemd-tmpfiles --create mlds.conf',
    'deb-systemd-helper unmask mlds.service',
    'deb-systemd-helper --quiet was-enabled mlds.service',
    'deb-systemd-helper enable mlds.service',
    'systemctl --system daemon-reload',
    'deb-systemd-invoke start mlds.service',
  ]);
});

test(
  'upgrade: a unit the admin disabled stays disabled and is restarted; without systemd (an image build) nothing starts',
  { skip: maintSkip },
  () => {
    const up = maint('postinst', ['configure', '1.5.0'], { systemd: true, wasEnabled: false });
    assert.ok(
      up.includes('deb-systemd-helper update-state mlds.service') &&
        !up.includes('deb-systemd-helper enable mlds.service'),
      up.join('\n'),
    );
    assert.ok(up.includes('deb-systemd-invoke restart mlds.service'), up.join('\n'));
    const chroot = maint('postinst', ['configure'], { systemd: false });
    assert.ok(chroot.includes('deb-systemd-helper enable mlds.service'), chroot.join('\n'));
    assert.ok(!chroot.some((l) => /^(systemctl|deb-systemd-invoke) /.test(l)), chroot.join('\n'));
  },
);

test('remove stops the service and keeps state; purge deletes state, logs and /etc/mlds', { skip: maintSkip }, () => {
  assert.deepEqual(maint('prerm', ['remove']).slice(0, -1), ['deb-systemd-invoke stop mlds.service']);
  assert.deepEqual(maint('prerm', ['upgrade', VERSION]).slice(0, -1), [], 'an upgrade restarts in postinst instead');
  const removed = maint('postrm', ['remove']);
  assert.deepEqual(removed.slice(0, -1), ['systemctl --system daemon-reload', 'deb-systemd-helper mask mlds.service']);
  assert.match(removed.at(-1)!, /state\.json/, 'removing keeps the state');
  const purged = maint('postrm', ['purge']);
  assert.deepEqual(purged.slice(0, -1), [
    'deb-systemd-helper purge mlds.service',
    'deb-systemd-helper unmask mlds.service',
  ]);
  assert.doesNotMatch(purged.at(-1)!, /state\.json|a\.log|written-by-load_config/, purged.at(-1));
});
