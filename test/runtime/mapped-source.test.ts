// The native helper's mappedSource(): a file as a string whose characters stay in the file, and
// releaseMemory() dropping its pages from the process; dist/launch.js compiles the bundle from it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { NATIVE_PATH, nativeHelper, nativeHelperProblem } from '../../src/output/native.js';
import { skipReason } from '../helpers/skip.js';
import { REPO } from '../helpers/service.js';

const skip = skipReason(nativeHelperProblem());
const dir = mkdtempSync(path.join(tmpdir(), 'mlds-mapped-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('mappedSource gives the file\'s text; an empty file gives ""; a missing one throws ENOENT', { skip }, () => {
  const { mappedSource } = nativeHelper();
  const text = 'const a = "Gleis 3";\n'.repeat(5000);
  writeFileSync(path.join(dir, 'a.js'), text);
  writeFileSync(path.join(dir, 'empty.js'), '');
  const s = mappedSource!(path.join(dir, 'a.js'));
  assert.equal(s.length, text.length);
  assert.equal(s, text);
  assert.equal(s.slice(-21), 'const a = "Gleis 3";\n');
  assert.equal(mappedSource!(path.join(dir, 'empty.js')), '');
  assert.throws(() => mappedSource!(path.join(dir, 'missing.js')), { code: 'ENOENT' });
});

test('a script compiled from a mapped source runs, and after releaseMemory() its pages are out of the process', { skip }, () => {
  // 2 MB of functions, each compiled lazily when called: a compilation reads the pages again.
  const fns = Array.from({ length: 20000 }, (_, i) => `function f${i}(x) { return x + ${i}; /* ${'pad'.repeat(25)} */ }`).join('\n');
  writeFileSync(path.join(dir, 'big.js'), `${fns}\nglobalThis.f19999 = f19999;`);
  const out = JSON.parse(execFileSync(process.execPath, ['-e', `
    const fs = require('node:fs'), vm = require('node:vm');
    const n = require(${JSON.stringify(NATIVE_PATH)});
    const file = ${JSON.stringify(path.join(dir, 'big.js'))};
    const rss = () => { const sm = fs.readFileSync('/proc/self/smaps', 'utf8'), i = sm.indexOf(file); return i < 0 ? -1 : +/Rss:\\s+(\\d+) kB/.exec(sm.slice(i))[1]; };
    new vm.Script(n.mappedSource(file), { filename: file }).runInThisContext();
    const afterCompile = rss();
    n.releaseMemory();
    const afterRelease = rss();
    const result = globalThis.f19999(1);
    console.log(JSON.stringify({ afterCompile, afterRelease, result, afterCall: rss() }));`], { encoding: 'utf8' }));
  assert.equal(out.result, 20000, 'the lazily compiled function read its text from the file');
  assert.ok(out.afterCompile > 1500, `the whole file was read at compilation (${out.afterCompile} kB resident)`);
  assert.ok(out.afterRelease < 100, `released: ${out.afterRelease} kB resident`);
  assert.ok(out.afterCall > out.afterRelease, 'a later compilation brought back the pages it read');
});

test('the bundle is ASCII and already wrapped as node\'s module function (what launch.js maps)', () => {
  const bundle = readFileSync(path.join(REPO, 'dist/bundle/mlds.cjs'));
  assert.ok(bundle.every((b) => b < 0x80), 'one byte a character');
  assert.ok(bundle.toString('latin1').startsWith('(function (exports, require, module, __filename, __dirname) {'));
});
