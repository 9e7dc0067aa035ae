// `make lintian` (not `make test`: lintian takes 0.5 to 3 minutes over the package's 4,000 files, as the load goes):
// lintian on the package `make deb` built (MLDS_DEB names another). No error, and every warning
// tag is one docs/device.md lists with its reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';

const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const DEB =
  process.env.MLDS_DEB ?? join(REPO, 'build', `mlds_${VERSION}_${process.arch === 'arm64' ? 'arm64' : 'amd64'}.deb`);

test(`lintian: no errors, only the warnings docs/device.md lists (${DEB})`, { timeout: 900_000 }, () => {
  assert.ok(existsSync(DEB), `${DEB} is missing: make deb`);
  const t0 = Date.now();
  const r = spawnSync('lintian', ['--no-tag-display-limit', DEB], { encoding: 'utf8', maxBuffer: 16 << 20 });
  assert.ok(r.status !== null && !r.error, `lintian did not run: ${r.error?.message ?? r.stderr}`);
  console.log(
    `# lintian ${((Date.now() - t0) / 1000).toFixed(0)} s, exit ${r.status}\n${r.stdout.replace(/^/gm, '# ')}`,
  );
  const tags = (kind: string) => [
    ...new Set([...r.stdout.matchAll(new RegExp(`^${kind}: mlds[^:]*: (\\S+)`, 'gm'))].map((m) => m[1])),
  ];
  assert.deepEqual(tags('E'), [], 'lintian errors');
  const doc = readFileSync(join(REPO, 'docs', 'device.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### lintian'));
  const unlisted = tags('W').filter((t) => !section.includes(`\`${t}\``));
  assert.deepEqual(unlisted, [], 'warnings docs/device.md does not list under "### lintian"');
});
