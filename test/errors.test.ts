import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ERRORS } from '../src/errors.js';
import { REPO } from './helpers/service.js';

test('every error code is documented in docs/http-api.md with its status, and nothing else is', () => {
  const doc = readFileSync(path.join(REPO, 'docs/http-api.md'), 'utf8');
  const rows = new Map<string, number>();
  for (const m of doc.matchAll(/^\| `(MLDS_[A-Z_]+)` \| (\d{3}) \|/gm)) rows.set(m[1], Number(m[2]));
  for (const [code, e] of Object.entries(ERRORS)) {
    assert.equal(rows.get(code), e.status, `${code} (${e.status}) is not documented with its status`);
  }
  assert.deepEqual([...rows.keys()].sort(), Object.keys(ERRORS).sort());
});

test('every code the source raises is in the table', () => {
  const used = execSync(`grep -rhoE "'MLDS_[A-Z_]+'" ${path.join(REPO, 'src')}`, { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((s: string) => s.slice(1, -1));
  for (const code of new Set(used)) assert.ok(code in ERRORS, `${code} is raised but not in the error table`);
});
