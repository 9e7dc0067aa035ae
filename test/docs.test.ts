// docs/ stands alone: a reader of the repository never meets a reference to a file outside it
// (the project's working notes, a specification or a decisions file that is not shipped).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from './helpers/service.js';

const DOCS = path.join(REPO, 'docs');
const OUTSIDE = [/\.\.\//, /\bshared\//, /\bDECISIONS\b/, /\bspec\//, /display-control-service\.md/];

test('docs/ names no file outside the repository', () => {
  const found: string[] = [];
  for (const name of readdirSync(DOCS).filter((n) => n.endsWith('.md'))) {
    readFileSync(path.join(DOCS, name), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (OUTSIDE.some((re) => re.test(line))) found.push(`docs/${name}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
  }
  assert.deepEqual(found, []);
});

test('every link between docs points at a file that exists', () => {
  const broken: string[] = [];
  for (const name of readdirSync(DOCS).filter((n) => n.endsWith('.md'))) {
    for (const m of readFileSync(path.join(DOCS, name), 'utf8').matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      try {
        readFileSync(path.resolve(DOCS, target));
      } catch {
        broken.push(`docs/${name}: ${target}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
