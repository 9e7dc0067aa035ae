// Without a usable native helper, each hardware output fails to open with one message naming
// the cause (missing vs unloadable), and the virtual output still takes frames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('./fixtures/no-native.ts', import.meta.url));

function run(nativePath: string): Record<string, { ok: boolean; lastError?: string; warnings: string[] }> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, MLDS_NATIVE: nativePath },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

test('a missing helper: hardware outputs say it is not built and how to build it; virtual works', () => {
  const r = run('/nonexistent/mlds_native.node');
  for (const d of ['fbdev', 'colorlight']) {
    assert.equal(r[d].ok, false);
    assert.match(
      r[d].lastError!,
      /^open: ERR_NATIVE_MISSING native helper not built: \/nonexistent\/mlds_native\.node is missing\. Run `make native`/,
    );
    assert.match(r[d].warnings[0], /output not open/);
  }
  assert.equal(r.virtual.ok, true);
});

test('an unloadable helper: the dlopen cause is named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mlds-native-'));
  try {
    const bad = join(dir, 'mlds_native.node');
    writeFileSync(bad, 'not an ELF file');
    const r = run(bad);
    assert.match(
      r.fbdev.lastError!,
      /ERR_NATIVE_LOAD native helper at .* cannot be loaded: .*(invalid ELF header|file too short).*Rebuild it with `make native`/,
    );
    assert.equal(r.fbdev.lastError, r.colorlight.lastError, 'one error, the same for every output');
    assert.equal(r.virtual.ok, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
