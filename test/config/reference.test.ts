// docs/configuration.md against the schema: every field config.json accepts has a row (its
// dotted path in backticks, first cell), and every row names a field the schema accepts.
// Rows under a heading naming another file (brightness-schedule.json) are that file's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';
import { generic, schemaPaths } from './reference-paths.js';

const DOC = path.join(REPO, 'docs/configuration.md');
const ROW = /^\|\s*`([^`]+)`\s*\|/;

/** Documented paths of config.json, each with the line it is on. */
export function documentedPaths(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let otherFile = false;
  text.split('\n').forEach((line, i) => {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) otherFile = /\.json\b/.test(heading[1]) && !/config\.json/.test(heading[1]);
    const row = ROW.exec(line);
    if (row && !otherFile) out.set(row[1], i + 1);
  });
  return out;
}

test('every field the schema accepts has a row in docs/configuration.md', () => {
  const documented = new Set([...documentedPaths(readFileSync(DOC, 'utf8')).keys()].map(generic));
  const missing = [...schemaPaths()].filter((p) => !documented.has(p));
  assert.deepEqual(
    missing,
    [],
    'write a row per field: | `dotted.path` | type | default | range | example | meaning |',
  );
});

test('every row of docs/configuration.md names a field the schema accepts', () => {
  const known = schemaPaths();
  const unknown = [...documentedPaths(readFileSync(DOC, 'utf8'))]
    .filter(([p]) => !known.has(generic(p)))
    .map(([p, line]) => `line ${line}: ${p}`);
  assert.deepEqual(unknown, []);
});

test('each row has the six cells of the convention, none empty but Default and Range', () => {
  const bad: string[] = [];
  readFileSync(DOC, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!ROW.test(line)) return;
      const cells = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      if (cells.length !== 6 || !cells[1] || !cells[4] || !cells[5]) bad.push(`line ${i + 1}: ${cells.length} cells`);
    });
  assert.deepEqual(bad, []);
});

test('the walk itself sees what the schema holds: a renamed field would be missed by both sides otherwise', () => {
  const paths = schemaPaths();
  for (const p of [
    'port',
    'displays.<>',
    'displays.<>.layout.<>.<>.scrollSpeed',
    'displays.<>.output.device',
    'crons[].cron',
    'pollers[].mapper.areas',
    'mdns.enabled',
    'limits.maxConnections',
    'sensors[].displays',
  ]) {
    assert.ok(paths.has(p), p);
  }
  const doc = documentedPaths(
    '## A\n| `a.b` | x | | | 1 | m |\n## brightness-schedule.json\n| `periods` | x | | | 1 | m |\n## Back\n| `c` ' +
      '| x | | | 1 | m |\n',
  );
  assert.deepEqual([...doc.keys()], ['a.b', 'c']);
});
