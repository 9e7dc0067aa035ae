// `make bench-image`: the bench's frame cost and pixel conversion inside the booted arm64 image
// (qemu-system-aarch64, TCG), as ratios to the baselines measured in the same run: absolute times
// under emulation mean nothing, the ratios say whether the ARM build takes a slower path (a
// missing NEON conversion in the native helper, say). The bench needs the source tree and tsx,
// which the package leaves out: the checkout of `make test-arm64`'s arm64 root (.vm/arm64/root/opt/mlds,
// node_modules compiled for arm64) goes in as a second disk; the package's own Node.js and native
// helper run it, with the service stopped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';
import { bootImage, imageUnavailable, prepareImage } from './vm/image.js';
import type { Machine } from './vm/machine.js';

const TREE = join(process.env.ARM64_WORK ?? join(REPO, '.vm', 'arm64'), 'root', 'opt', 'mlds');
const skip =
  imageUnavailable() ??
  (existsSync(join(TREE, 'node_modules', 'tsx'))
    ? undefined
    : `${TREE} has no node_modules (scripts/arm64/run.sh root node tree deps)`);
if (skip) console.log(`# image bench skipped: ${skip}`);

test('bench ratios inside the booted arm64 image', { skip, timeout: 3_600_000 }, async () => {
  mkdirSync(join(REPO, '.vm'), { recursive: true });
  const work = mkdtempSync(join(REPO, '.vm', 'image-bench-'));
  let vm: Machine | undefined;
  const t0 = Date.now();
  try {
    const tree = join(work, 'tree.img');
    const mb = Number(execFileSync('du', ['-sm', TREE], { encoding: 'utf8' }).split('\t')[0]);
    execFileSync('mkfs.ext4', ['-q', '-d', TREE, tree, `${Math.ceil(mb * 1.3) + 64}M`]);
    const p = prepareImage(work, {});
    vm = await bootImage({ ...p, work, drives: [tree] });
    const m = vm;
    const sh = async (cmd: string) => {
      const r = await m.sh(cmd, 3_000_000);
      assert.equal(r.code, 0, `${cmd}: ${r.out}`);
      return r.out;
    };
    for (let i = 0; ; i++) {
      if ((await m.sh('true').catch(() => undefined))?.code === 0) break;
      assert.ok(i < 5, 'the guest shell');
    }
    await sh('systemctl stop mlds && mkdir -p /mnt/tree && mount /dev/vdb /mnt/tree');
    console.log(
      `# guest ready after ${((Date.now() - t0) / 1000).toFixed(0)} s: ` +
        `${(await sh('uname -m; nproc; cat /proc/cpuinfo | grep -m1 Features')).replace(/\n/g, ' | ')}`,
    );
    const env =
      'cd /mnt/tree && MLDS_NATIVE=/opt/mlds/native/build/Release/mlds_native.node MLDS_BENCH_SECONDS=5 ' +
      'HOME=/tmp /opt/mlds/node/bin/node --import tsx';
    const conversion = await sh(`${env} bench/outputs.ts --conversion`);
    console.log(`# ${((Date.now() - t0) / 1000).toFixed(0)} s\n${conversion.replace(/^/gm, '# ')}`);
    const render = await sh(`${env} bench/render.ts`);
    console.log(`# ${((Date.now() - t0) / 1000).toFixed(0)} s\n${render.replace(/^/gm, '# ')}`);
    assert.match(render, /median \/ baseline/);
    await m.sh('systemctl poweroff --no-block');
  } finally {
    vm?.kill();
    rmSync(work, { recursive: true, force: true });
  }
});
