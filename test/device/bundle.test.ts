// `make bundle` on the host, quickly: scripts/image/keys.sh's development CA and signing key,
// scripts/image/bundle.sh on a small ext4 root, and `rauc info` verifying the bundle against the
// CA (the image's keyring) with the image's own /etc/rauc/system.conf loaded; a bundle is
// refused against another CA, and the image's system.conf is one RAUC 1.8 accepts.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { REPO } from '../helpers/service.js';

const missing = ['rauc', 'mksquashfs', 'openssl', 'mkfs.ext4'].find((c) => spawnSync(c, ['--help']).error);
const skip = missing
  ? `${missing} is not installed (Debian packages rauc, squashfs-tools, openssl, e2fsprogs)`
  : undefined;
if (skip) console.log(`# bundle test skipped: ${skip}`);

const work = mkdtempSync(join(tmpdir(), 'mlds-bundle-'));
after(() => rmSync(work, { recursive: true, force: true }));
const run = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env } });

/** The image's system.conf with its keyring at `ca`. */
const systemConf = (ca: string) => {
  const f = join(work, `system-${Math.random().toString(36).slice(2)}.conf`);
  writeFileSync(
    f,
    readFileSync(join(REPO, 'scripts/image/rootfs/etc/rauc/system.conf'), 'utf8').replace('/etc/rauc/keyring.pem', ca),
  );
  return f;
};

test(
  'make bundle: a verity bundle for mlds-arm64 with the version asked for, verified against the development CA',
  { skip, timeout: 120_000 },
  () => {
    const keys = join(work, 'keys');
    const made = run(join(REPO, 'scripts/image/keys.sh'), [keys]);
    assert.equal(made.status, 0, made.stderr);
    assert.equal(
      statSync(join(keys, 'signing.key.pem')).mode & 0o777,
      0o600,
      'the signing key is readable by its owner only',
    );
    const again = run(join(REPO, 'scripts/image/keys.sh'), [keys]);
    assert.equal(again.stdout, '', 'keys that exist are kept');

    const root = join(work, 'root');
    mkdirSync(join(root, 'etc'), { recursive: true });
    writeFileSync(join(root, 'etc/os-release'), 'ID=debian\n');
    writeFileSync(join(root, 'etc/payload'), randomBytes(256 * 1024));
    const ext4 = join(work, 'root.ext4');
    execFileSync('mkfs.ext4', ['-q', '-L', 'mlds-root', '-d', root, ext4, '16M']);
    const out = join(work, 'mlds_9.8.7_arm64.raucb');
    const b = run(join(REPO, 'scripts/image/bundle.sh'), [ext4, '9.8.7', out], {
      BUNDLE_KEY: join(keys, 'signing.key.pem'),
      BUNDLE_CERT: join(keys, 'signing.cert.pem'),
    });
    assert.equal(b.status, 0, b.stderr);
    assert.match(b.stdout, /mlds_9\.8\.7_arm64\.raucb .*version 9\.8\.7/);

    const info = run('rauc', [
      `--conf=${systemConf(join(keys, 'ca.cert.pem'))}`,
      `--keyring=${join(keys, 'ca.cert.pem')}`,
      'info',
      '--output-format=json',
      out,
    ]);
    assert.equal(info.status, 0, info.stderr);
    assert.match(info.stderr, /Verified inline signature by '.*mlds development bundle signing'/);
    const manifest = JSON.parse(info.stdout) as {
      compatible: string;
      version: string;
      images: Array<Record<string, { filename: string; size: number }>>;
    };
    assert.equal(manifest.compatible, 'mlds-arm64', "the compatible of the image's system.conf");
    assert.equal(manifest.version, '9.8.7');
    assert.equal(manifest.images[0].rootfs.filename, 'root.ext4');
    assert.equal(manifest.images[0].rootfs.size, statSync(ext4).size);
    // The verity format: a plain bundle would be refused by the image (bundle-formats=-plain).
    const raw = readFileSync(out);
    assert.ok(raw.includes(Buffer.from('format=verity')), 'the signed manifest names the verity format');

    const other = join(work, 'other');
    assert.equal(run(join(REPO, 'scripts/image/keys.sh'), [other]).status, 0);
    const refused = run('rauc', ['info', `--keyring=${join(other, 'ca.cert.pem')}`, out]);
    assert.notEqual(refused.status, 0, 'another CA does not verify it');
    assert.match(refused.stderr, /signature verification failed/);
  },
);

test(
  "the image's system.conf is one RAUC 1.8 loads (slots, grub with its grubenv, the data directory)",
  { skip },
  () => {
    const conf = readFileSync(join(REPO, 'scripts/image/rootfs/etc/rauc/system.conf'), 'utf8');
    for (const line of [
      'compatible=mlds-arm64',
      'bootloader=grub',
      'grubenv=/boot/efi/EFI/BOOT/grubenv',
      'bootname=A',
      'bootname=B',
      'device=/dev/disk/by-partlabel/rootfs-a',
      'device=/dev/disk/by-partlabel/rootfs-b',
    ]) {
      assert.ok(conf.split('\n').includes(line), line);
    }
    // rauc loads the configuration before anything else: a key it cannot read fails here.
    const bad = systemConf('/nonexistent.pem');
    writeFileSync(bad, readFileSync(bad, 'utf8').replace('resize=true', 'resize=perhaps'));
    const r = run('rauc', [`--conf=${bad}`, 'info', '/nonexistent.raucb']);
    assert.match(r.stderr, /Failed to load system config/);
    const ok = run('rauc', [`--conf=${systemConf('/nonexistent.pem')}`, 'info', '/nonexistent.raucb']);
    assert.doesNotMatch(ok.stderr, /Failed to load system config|Failed to initialize context/, ok.stderr);
  },
);
