import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { applyMergePatch } from '../../src/config/merge-patch.js';
import { canonicalJson } from '../../src/config/digest.js';
import type { ConfigError } from '../../src/config/faults.js';
import { loadServiceConfig } from '../../src/runtime/load-config.js';
import { REPO, baseConfig, serviceDir } from '../helpers/service.js';

const CLI = path.join(REPO, 'dist/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });

test('merge patch: the examples of RFC 7396 appendix A', () => {
  const cases: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, result] of cases) {
    const before = JSON.stringify(target);
    assert.deepEqual(applyMergePatch(target, patch), result, `${before} + ${JSON.stringify(patch)}`);
    assert.equal(JSON.stringify(target), before, 'the target is left as it was');
  }
});

test('canonical JSON: one text whatever the order of the keys', () => {
  assert.equal(canonicalJson({ b: [2, { d: 1, c: 'x' }], a: null }), '{"a":null,"b":[2,{"c":"x","d":1}]}');
  assert.equal(canonicalJson({ z: 1, a: 2 }), canonicalJson({ a: 2, z: 1 }));
});

test("mlds test --unit: checks the configuration with the unit's part merged over it", () => {
  const sd = serviceDir(baseConfig());
  try {
    const good = path.join(sd.dir, 'good-unit.json');
    writeFileSync(
      good,
      JSON.stringify({
        displays: { main: { displayPort: '9105' } },
        mqtt: { url: 'mqtt://127.0.0.1:1', unit: 'north-1' },
      }),
    );
    const ok = run('test', '--config', sd.configFile, '--unit', good, '--out', path.join(sd.dir, 'out'));
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /good-unit\.json is valid/);
    const plain = run('test', '--config', sd.configFile, '--out', path.join(sd.dir, 'out'));
    const digest = (s: string) => /^digest ([0-9a-f]{64})$/m.exec(s)?.[1];
    assert.ok(digest(ok.stdout) && digest(plain.stdout));
    assert.notEqual(digest(ok.stdout), digest(plain.stdout), 'the unit part is in the digest');

    const bad = path.join(sd.dir, 'bad-unit.json');
    writeFileSync(bad, JSON.stringify({ port: '22', displays: { main: { displayPort: 'x', colour: 1 } } }));
    const r = run('test', '--config', sd.configFile, '--unit', bad, '--out', path.join(sd.dir, 'out'));
    assert.equal(r.status, 78);
    assert.match(r.stderr, /\/port: must be between 1025 and 65535/);
    assert.match(r.stderr, /\/displays\/main\/colour: is not a known field/);

    writeFileSync(bad, '[1]');
    assert.match(run('test', '--config', sd.configFile, '--unit', bad).stderr, /unit\.json must hold a JSON object/);
    assert.equal(run('test', '--config', sd.configFile, '--unit', path.join(sd.dir, 'none.json')).status, 64);
  } finally {
    sd.cleanup();
  }
});

test('unit.json patches what an $include holds, and a fault of either part is named', () => {
  const c = baseConfig();
  c.mqtt = { $include: 'mqtt.json' };
  const sd = serviceDir(c);
  try {
    writeFileSync(
      path.join(sd.dir, 'mqtt.json'),
      JSON.stringify({ url: 'mqtt://127.0.0.1:1', unit: 'fleet', groups: ['all'] }),
    );
    const unit = path.join(sd.dir, 'unit.json');
    writeFileSync(unit, JSON.stringify({ mqtt: { unit: 'north-1', groups: ['north'] } }));
    const config = loadServiceConfig(sd.configFile, unit);
    assert.equal(config.mqtt?.unit, 'north-1');
    assert.deepEqual(config.mqtt?.groups, ['north']);
    assert.equal(config.mqtt?.url, 'mqtt://127.0.0.1:1');
    assert.notEqual(config.digests?.unit, undefined);
    assert.equal(loadServiceConfig(sd.configFile).digests?.unit, undefined);
    assert.equal(loadServiceConfig(sd.configFile).digests?.base, config.digests?.base, 'the same fleet part');

    writeFileSync(unit, JSON.stringify({ mqtt: { unit: 'a/b', colour: 1 } }));
    assert.throws(
      () => loadServiceConfig(sd.configFile, unit),
      (err: ConfigError) => {
        const paths = err.faults.map((f) => f.path);
        return paths.includes('/mqtt/unit') && paths.includes('/mqtt/colour');
      },
    );
  } finally {
    sd.cleanup();
  }
});
