// The layer rules `make lint` runs (.dependency-cruiser.cjs): a fixture house with a folder
// that imports from a layer above it, one that imports a sibling of its own layer, and one
// that imports only downward. The first two fail the check, naming the rule; the last passes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';

function cruise(files: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-layers-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', allowJs: false } }),
    );
    const r = spawnSync(
      path.join(REPO, 'node_modules/.bin/depcruise'),
      ['src', '--config', path.join(REPO, '.dependency-cruiser.cjs'), '--output-type', 'err'],
      { cwd: dir, encoding: 'utf8' },
    );
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('an import from a lower layer into a higher one fails the layer check, naming the rule and the files', () => {
  const r = cruise({
    'src/config/load.ts': "import { route } from '../http/route.js';\nexport const load = route;\n",
    'src/http/route.ts': 'export const route = 1;\n',
  });
  assert.notEqual(r.status, 0, r.out);
  assert.match(r.out, /layer:config: src\/config\/load\.ts → src\/http\/route\.ts/);
});

test('two folders of one layer may not import each other: a sibling import fails too', () => {
  const r = cruise({
    'src/text/lines.ts': "import { probe } from '../media/probe.js';\nexport const lines = probe;\n",
    'src/media/probe.ts': 'export const probe = 1;\n',
  });
  assert.notEqual(r.status, 0, r.out);
  assert.match(r.out, /layer:text: src\/text\/lines\.ts → src\/media\/probe\.ts/);
});

test('imports that only go down pass, and a folder no layer names fails', () => {
  const down = cruise({
    'src/http/route.ts':
      "import { load } from '../config/load.js';\nimport { fault } from '../errors.js';\nexport const route = " +
      '[load, fault];\n',
    'src/config/load.ts': "import { fault } from '../errors.js';\nexport const load = fault;\n",
    'src/errors.ts': 'export const fault = 1;\n',
  });
  assert.equal(down.status, 0, down.out);
  const unplaced = cruise({
    'src/unplaced/poll.ts': "import { fault } from '../errors.js';\nexport const poll = fault;\n",
    'src/errors.ts': 'export const fault = 1;\n',
  });
  assert.notEqual(unplaced.status, 0, unplaced.out);
  assert.match(unplaced.out, /no-unplaced-folder: src\/unplaced\/poll\.ts/);
});
