// skipReason: a missing dependency skips on a developer's machine and fails under CI=true; a
// missing piece of hardware skips everywhere. Checked on a small test file run by node --test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const HELPER = pathToFileURL(path.join(import.meta.dirname, 'skip.ts')).href;

function runWith(env: Record<string, string | undefined>, body: string): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-skip-'));
  try {
    const file = path.join(dir, 'probe.test.ts');
    writeFileSync(
      file,
      `import { test } from 'node:test';\nimport { skipReason } from ${JSON.stringify(HELPER)};\n${body}\n`,
    );
    // node --test marks its children; a child that sees the mark will not run test files itself.
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, NODE_TEST_CONTEXT: undefined };
    for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], {
      encoding: 'utf8',
      env: childEnv,
      timeout: 60_000,
    });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const BODY = `
test('needs a package', { skip: skipReason('needs Debian\\'s python3-example') }, () => {});
test('needs it too', { skip: skipReason('needs Debian\\'s python3-example') }, () => {});
test('needs a sound card', { skip: skipReason('no sound card here', 'hardware') }, () => {});
test('needs nothing', { skip: skipReason(undefined) }, () => {});`;

test('without CI a missing dependency skips: nothing fails', () => {
  const r = runWith({ CI: undefined }, BODY);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /# skipped 3/);
  assert.match(r.out, /# pass 1/);
});

test('under CI=true a missing dependency fails once per reason, naming it; hardware still skips', () => {
  const r = runWith({ CI: 'true' }, BODY);
  assert.notEqual(r.status, 0, r.out);
  assert.match(
    r.out,
    /not ok \d+ - CI=true: a dependency the Makefile installs is missing: needs Debian's python3-example/,
  );
  assert.match(r.out, /# fail 1/);
  assert.match(r.out, /# skipped 3/);
});

test('under CI=true, nothing missing: all run and pass', () => {
  const r = runWith(
    { CI: 'true' },
    `test('a', { skip: skipReason(undefined) }, () => {});\ntest('b', { skip: skipReason('no /dev/snd', ` +
      `'hardware') }, () => {});`,
  );
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /# pass 1/);
  assert.match(r.out, /# skipped 1/);
});
