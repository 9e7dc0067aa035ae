// The device, `make run` and the start bench run the service with the same process settings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PROCESS_ENV } from '../../src/runtime/process-settings.js';

const REPO = path.resolve(import.meta.dirname, '../..');
/** Allocates 200,000 small objects that stay alive, then prints the new space's size. */
const NEW_SPACE = 'const keep = []; for (let i = 0; i < 2e5; i++) keep.push({ i, s: "x" + i }); console.log(require("v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size)';

test('the unit sets every process setting with Environment=', () => {
  const unit = readFileSync(path.join(REPO, 'systemd/mlds.service'), 'utf8');
  const set = new Map(unit.split('\n').filter((l) => l.startsWith('Environment=')).flatMap((l) => l.slice('Environment='.length).split(' ')).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  for (const [k, v] of Object.entries(PROCESS_ENV)) assert.equal(set.get(k), v, `Environment=${k}=${v}`);
});

test('make run starts the service with them too', () => {
  const makefile = readFileSync(path.join(REPO, 'Makefile'), 'utf8');
  const run = makefile.slice(makefile.indexOf('\nrun:'), makefile.indexOf('\n\n', makefile.indexOf('\nrun:')));
  const line = run.split('\n').find((l) => l.includes('dist/cli.js start'));
  assert.ok(line, run);
  for (const [k, v] of Object.entries(PROCESS_ENV)) assert.ok(line.includes(`${k}=${v} `), `${k}=${v} in: ${line}`);
});

test('node takes the flags from NODE_OPTIONS and the young generation stays small', () => {
  // 4 MB semi-spaces: new space stays within 8 MB (12 with its age mark) however much is allocated.
  const r = spawnSync(process.execPath, ['-e', NEW_SPACE], { encoding: 'utf8', env: { ...process.env, ...PROCESS_ENV } });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) <= 12 << 20, r.stdout);
  const without = spawnSync(process.execPath, ['-e', NEW_SPACE], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  assert.ok(Number(without.stdout) > Number(r.stdout), `${without.stdout} vs ${r.stdout}`);
});
