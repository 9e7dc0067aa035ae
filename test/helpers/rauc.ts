// A real RAUC for tests: a private D-Bus system bus (dbus-daemon with a policy allowing
// everything), `rauc service` on it with a system.conf whose two slots (A, B) are plain files
// written raw, and bootloader=custom with a shell backend that keeps primary and each slot's
// state in a file, logging every call, so marking and switching slots can be seen. Bundles are
// made with `rauc bundle` (plain format: verity needs /dev/mapper), signed by a test CA.
// Needs root (RAUC mounts the bundle's squashfs through a loop device).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until } from './wait.js';
import { selfSigned } from './certs.js';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Why this machine cannot run RAUC here, or undefined. */
export function raucMissing(): string | undefined {
  for (const c of ['rauc', 'dbus-daemon', 'busctl', 'mksquashfs', 'openssl'])
    if (!has(c)) return `${c} is not installed (make test-deps: rauc, dbus, squashfs-tools)`;
  if (process.getuid?.() !== 0) return 'RAUC mounts bundles through loop devices: root is needed';
  if (!existsSync('/dev/loop-control')) return 'no loop devices (/dev/loop-control)';
  return undefined;
}

export const SLOT_BYTES = 4 * 1024 * 1024;

export class RaucRig {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'mlds-rauc-'));
  readonly bus = `unix:path=${path.join(this.dir, 'bus.sock')}`;
  readonly conf = path.join(this.dir, 'system.conf');
  readonly bootIdFile = path.join(this.dir, 'boot_id');
  readonly backendLog = path.join(this.dir, 'backend.log');
  private daemon?: ChildProcess;
  private service?: ChildProcess;
  serviceLog = '';

  slot(name: 'A' | 'B'): string {
    return path.join(this.dir, `slot${name}.img`);
  }

  /** The backend's state file: primary=..., state_A=..., state_B=... */
  bootState(): Record<string, string> {
    const f = path.join(this.dir, 'boot.state');
    if (!existsSync(f)) return {};
    return Object.fromEntries(
      readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('=') as [string, string]),
    );
  }

  backendCalls(): string[] {
    return existsSync(this.backendLog) ? readFileSync(this.backendLog, 'utf8').split('\n').filter(Boolean) : [];
  }

  /** Keeps RAUC busy in an install's last step (the backend's set-primary) until the returned function is called. */
  hold(): () => void {
    const f = path.join(this.dir, 'hold');
    writeFileSync(f, '');
    return () => rmSync(f, { force: true });
  }

  /** A new boot: the kernel's boot id changes. */
  newBoot(): void {
    writeFileSync(this.bootIdFile, `${randomBytes(16).toString('hex')}\n`);
  }

  async start(bootSlot: 'A' | 'B'): Promise<void> {
    const d = this.dir;
    writeFileSync(
      path.join(d, 'bus.conf'),
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>${this.bus}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
`,
    );
    selfSigned(path.join(d, 'cert.pem'), path.join(d, 'key.pem'), '/CN=mlds test');
    // As GRUB's environment does it: set-primary puts the slot first and lets it be tried.
    writeFileSync(
      path.join(d, 'backend.sh'),
      `#!/bin/sh
F=${d}/boot.state
touch "$F"
echo "$*" >> ${this.backendLog}
get() { sed -n "s/^$1=//p" "$F"; }
put() { grep -v "^$1=" "$F" > "$F.tmp"; echo "$1=$2" >> "$F.tmp"; mv "$F.tmp" "$F"; }
case "$1" in
  get-primary) p=$(get primary); echo "\${p:-A}" ;;
  set-primary) while [ -e ${d}/hold ]; do sleep 0.1; done; put primary "$2"; put "state_$2" good ;;
  get-state) s=$(get "state_$2"); echo "\${s:-good}" ;;
  set-state) put "state_$2" "$3" ;;
  *) exit 1 ;;
esac
`,
      { mode: 0o755 },
    );
    writeFileSync(
      this.conf,
      `[system]
compatible=mlds-test
bootloader=custom
statusfile=${d}/central.raucs
mountprefix=${d}/mnt
[keyring]
path=${d}/cert.pem
[handlers]
bootloader-custom-backend=${d}/backend.sh
[slot.rootfs.0]
device=${this.slot('A')}
type=raw
bootname=A
[slot.rootfs.1]
device=${this.slot('B')}
type=raw
bootname=B
`,
    );
    mkdirSync(path.join(d, 'mnt'), { recursive: true });
    writeFileSync(this.slot('A'), Buffer.alloc(SLOT_BYTES, 0x41));
    writeFileSync(this.slot('B'), Buffer.alloc(SLOT_BYTES, 0));
    this.newBoot();
    this.daemon = spawn('dbus-daemon', [`--config-file=${path.join(d, 'bus.conf')}`, '--nofork'], { stdio: 'ignore' });
    await until(() => existsSync(path.join(d, 'bus.sock')), 10_000, 'the private bus');
    await this.startService(bootSlot);
  }

  /** `rauc service` as the slot `bootSlot` had booted. */
  async startService(bootSlot: 'A' | 'B'): Promise<void> {
    this.serviceLog = '';
    const child = spawn('rauc', ['service', '-c', this.conf, `--override-boot-slot=${bootSlot}`], {
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (b: Buffer) => {
      this.serviceLog += b.toString();
    });
    child.stderr!.on('data', (b: Buffer) => {
      this.serviceLog += b.toString();
    });
    this.service = child;
    await until(
      () =>
        spawnSync('busctl', ['get-property', 'de.pengutronix.rauc', '/', 'de.pengutronix.rauc.Installer', 'BootSlot'], {
          env: this.env(),
        }).status === 0,
      15_000,
      () => `rauc service on the private bus: ${this.serviceLog}`,
      100,
    );
  }

  async stopService(): Promise<void> {
    const s = this.service;
    if (!s || s.exitCode !== null || s.signalCode !== null) return;
    const gone = new Promise((r) => s.once('exit', r));
    s.kill('SIGTERM');
    await gone;
  }

  env(): NodeJS.ProcessEnv {
    return { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: this.bus };
  }

  /**
   * Points services started in this process at the rig (its bus, system.conf and boot id), with a reboot
   * that touches `rebootedFile`; the returned function takes it back.
   */
  useInProcess(rebootedFile: string): () => void {
    const set = {
      DBUS_SYSTEM_BUS_ADDRESS: this.bus,
      MLDS_RAUC_CONF: this.conf,
      MLDS_REBOOT_COMMAND: `touch ${rebootedFile}`,
      MLDS_BOOT_ID_FILE: this.bootIdFile,
    };
    Object.assign(process.env, set);
    return () => {
      for (const k of Object.keys(set)) delete process.env[k];
    };
  }

  /** A signed bundle of `bytes` random bytes as the rootfs image; `signedBy` another key makes one RAUC refuses. */
  bundle(
    version: string,
    bytes: number,
    opts: { untrusted?: boolean } = {},
  ): { file: string; image: Buffer; sha256: string; bytes: Buffer } {
    const d = mkdtempSync(path.join(this.dir, 'bundle-'));
    const image = randomBytes(bytes);
    writeFileSync(path.join(d, 'rootfs.img'), image);
    writeFileSync(
      path.join(d, 'manifest.raucm'),
      `[update]\ncompatible=mlds-test\nversion=${version}\n` +
        '[bundle]\nformat=plain\n[image.rootfs]\nfilename=rootfs.img\n',
    );
    let cert = path.join(this.dir, 'cert.pem'),
      key = path.join(this.dir, 'key.pem');
    if (opts.untrusted) {
      cert = path.join(this.dir, 'other-cert.pem');
      key = path.join(this.dir, 'other-key.pem');
      selfSigned(cert, key, '/CN=someone else');
    }
    const file = path.join(this.dir, `v${version}-${path.basename(d)}.raucb`);
    execFileSync('rauc', ['bundle', `--cert=${cert}`, `--key=${key}`, d, file], { stdio: 'ignore' });
    rmSync(d, { recursive: true, force: true });
    const all = readFileSync(file);
    return { file, image, sha256: createHash('sha256').update(all).digest('hex'), bytes: all };
  }

  async cleanup(): Promise<void> {
    await this.stopService();
    this.daemon?.kill('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
