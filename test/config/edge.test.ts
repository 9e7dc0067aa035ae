// Configuration files a person or an accident can produce: JSON that stops half way or has a
// typo (named by file, line and column), nesting deep enough to overflow a recursive walk, and
// $include names that are not regular files (a FIFO would block the whole service).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_DEPTH } from '../../src/config/depth.js';
import { REPO, baseConfig, get, serviceDir, start } from '../helpers/service.js';
import { fileFaults, type Fault } from '../helpers/config-faults.js';
import { skipReason } from '../helpers/skip.js';
import { emulated } from '../helpers/emulation.js';

/** `{"a":{"a":...1}}` with `levels` objects, as text: JSON.stringify itself overflows on 100,000. */
const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** Loads a configuration in a child process, so a load that blocks fails the test instead of hanging it. */
function loadInChild(configFile: string): { status: number | null; signal: string | null; out: string } {
  const code = `import { loadConfig } from './src/config/load.ts';
    try { loadConfig(${JSON.stringify(configFile)}); console.log('[]'); }
    catch (e) { console.log(JSON.stringify(e.faults ?? e.message)); }`;
  // A blocked load never ends: the bound only has to outlast a slow one (tsx and the check under qemu-user took 9-21
  // s).
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: emulated ? 120_000 : 20_000,
  });
  return { status: r.status, signal: r.signal, out: r.stdout + r.stderr };
}

test('a JSON syntax error names the file, line and column; a cut-off file "ends early"', () => {
  const sd = serviceDir(baseConfig());
  try {
    const bad = path.join(sd.dir, 'config.bad.json');
    writeFileSync(bad, '{\n  "displays": {\n    "main": { "displayWidth": 10,, }\n  }\n}\n');
    const [typo, ...rest] = fileFaults(bad);
    assert.equal(rest.length, 0);
    assert.match(typo.message, /^config\.bad\.json is not valid JSON at line 3, column 34: expected a property name/);
    assert.doesNotMatch(typo.message, /config\.json|position/);

    const text = JSON.stringify(baseConfig(), null, 2);
    writeFileSync(bad, text.slice(0, text.indexOf('"layout"') + 5));
    const [cut] = fileFaults(bad);
    assert.match(
      cut.message,
      /^config\.bad\.json: the file ends early \(line \d+, column \d+\): a string is not closed/,
    );
    writeFileSync(bad, text.slice(0, text.lastIndexOf('}')));
    assert.match(
      fileFaults(bad)[0].message,
      /^config\.bad\.json: the file ends early \(line \d+, column \d+\): 1 object or array is not closed/,
    );
    writeFileSync(bad, '');
    assert.match(fileFaults(bad)[0].message, /the file ends early .*no JSON value/);
  } finally {
    sd.cleanup();
  }
});

test('a syntax error in an $include names the included file, line and column, at the include', () => {
  const c = baseConfig();
  c.displays.main.layout = { $include: 'layouts/main.json' };
  const sd = serviceDir(c);
  try {
    mkdirSync(path.join(sd.dir, 'layouts'));
    writeFileSync(path.join(sd.dir, 'layouts/main.json'), '{\n  "l1": {\n    "title": { "type": \'text\' }\n  }\n}');
    // The layout left empty is a fault of its own; the include's is the first.
    const f = fileFaults(sd.configFile);
    assert.equal(f[0].path, '/displays/main/layout');
    assert.match(
      f[0].message,
      /^\$include "layouts\/main\.json" is not valid JSON at line 3, column 24: .*double quotes/,
    );
    writeFileSync(path.join(sd.dir, 'layouts/main.json'), '{\n  "l1": {\n    "title": { "ty');
    assert.match(
      fileFaults(sd.configFile)[0].message,
      /^\$include "layouts\/main\.json": the file ends early \(line 3, column 19\): a string is not closed/,
    );
  } finally {
    sd.cleanup();
  }
});

test(
  `nesting deeper than ${MAX_DEPTH} levels is one fault at the place it got too deep, ` + 'at 2,000 and 100,000 levels',
  () => {
    const sd = serviceDir(baseConfig());
    try {
      for (const levels of [2_000, 100_000]) {
        const text = JSON.stringify(baseConfig()).replace(/}$/, `,"extra":${nested(levels)}}`);
        writeFileSync(sd.configFile, text);
        const f = fileFaults(sd.configFile);
        assert.equal(f.length, 1, JSON.stringify(f).slice(0, 300));
        // The root is level 1, "extra" level 2: the object at level MAX_DEPTH + 1 is the one too deep.
        assert.equal(f[0].path, '/extra' + '/a'.repeat(MAX_DEPTH - 1));
        assert.match(f[0].message, new RegExp(`more than ${MAX_DEPTH} levels deep`));
        const arrays = JSON.stringify(baseConfig()).replace(
          /}$/,
          `,"extra":${'['.repeat(levels)}${']'.repeat(levels)}}`,
        );
        writeFileSync(sd.configFile, arrays);
        assert.equal(fileFaults(sd.configFile)[0].path, '/extra' + '/0'.repeat(MAX_DEPTH - 1));
      }
      // At the limit it is an ordinary configuration (with an unknown field).
      writeFileSync(sd.configFile, JSON.stringify(baseConfig()).replace(/}$/, `,"extra":${nested(MAX_DEPTH - 2)}}`));
      assert.deepEqual(fileFaults(sd.configFile), [{ path: '/extra', message: 'is not a known field' }]);
    } finally {
      sd.cleanup();
    }
  },
);

test('an $include counts from where it is included: a deep file at a deep place is a fault there', () => {
  const c = baseConfig();
  c.displays.main.layout.l1.sign.params = { $include: 'params.json' };
  const sd = serviceDir(c);
  try {
    // params sits at level 7; the included object replaces it, so its own nesting adds from there.
    writeFileSync(path.join(sd.dir, 'params.json'), nested(MAX_DEPTH - 5));
    const f = fileFaults(sd.configFile).filter((x) => /levels deep/.test(x.message));
    assert.equal(f.length, 1, JSON.stringify(f));
    assert.equal(f[0].path, '/displays/main/layout/l1/sign/params' + '/a'.repeat(MAX_DEPTH - 6));
    assert.match(f[0].message, /levels deep \(in \$include "params\.json"\)/);
  } finally {
    sd.cleanup();
  }
});

test('an $include that names a FIFO, a directory or a device is a fault at once, never a blocked service', () => {
  const c = baseConfig();
  c.displays.main.layout = { $include: 'pipe.json' };
  c.displays.main.output = { $include: 'folder.json' };
  const sd = serviceDir(c);
  try {
    execFileSync('mkfifo', [path.join(sd.dir, 'pipe.json')]);
    mkdirSync(path.join(sd.dir, 'folder.json'));
    const r = loadInChild(sd.configFile);
    assert.equal(r.signal, null, `the load blocked (killed by ${r.signal}): ${r.out}`);
    const f = (JSON.parse(r.out) as Fault[]).filter((x) => /regular file/.test(x.message));
    assert.deepEqual(f.map((x) => x.path).sort(), ['/displays/main/layout', '/displays/main/output']);
    assert.match(
      f.find((x) => x.path === '/displays/main/layout')!.message,
      /"pipe\.json" is a named pipe \(FIFO\), not a regular file/,
    );
    assert.match(
      f.find((x) => x.path === '/displays/main/output')!.message,
      /"folder\.json" is a directory, not a regular file/,
    );
  } finally {
    sd.cleanup();
  }
});

test(
  'a device file as $include is refused without reading it (needs root for mknod)',
  { skip: skipReason(process.getuid?.() === 0 ? undefined : 'not root', 'hardware') },
  () => {
    const c = baseConfig();
    c.displays.main.layout = { $include: 'zero.json' };
    const sd = serviceDir(c);
    try {
      execFileSync('mknod', [path.join(sd.dir, 'zero.json'), 'c', '1', '5']); // /dev/zero: reading never ends
      const r = loadInChild(sd.configFile);
      assert.equal(r.signal, null, `the load did not return: ${r.out}`);
      assert.match(r.out, /"zero\.json\\" is a device, not a regular file/);
    } finally {
      sd.cleanup();
    }
  },
);

test('a FIFO given as the configuration file itself is a fault, not a hang', () => {
  const sd = serviceDir(baseConfig());
  try {
    const fifo = path.join(sd.dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const r = loadInChild(fifo);
    assert.equal(r.signal, null, `the load blocked: ${r.out}`);
    assert.match(r.out, /fifo\.json is a named pipe \(FIFO\), not a regular file/);
  } finally {
    sd.cleanup();
  }
});

test(
  '/reload_config of a config nested 2,000 levels deep: 400 with the fault, /status faulty, the service keeps ' +
    'running',
  async () => {
    const c = baseConfig();
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      writeFileSync(sd.configFile, JSON.stringify(c).replace(/}$/, `,"extra":${nested(2_000)}}`));
      const r = await get(svc, '/reload_config');
      assert.equal(r.status, 400, r.text.slice(0, 300));
      assert.equal(r.json.code, 'MLDS_CONFIG_INVALID');
      const f = r.json.faults as Fault[];
      assert.equal(f.length, 1);
      assert.equal(f[0].path, '/extra' + '/a'.repeat(MAX_DEPTH - 1));
      const status = (await get(svc, '/status')).json.config as { status: string; faults: Fault[] };
      assert.equal(status.status, 'faulty');
      assert.match(status.faults[0].message, /levels deep/);
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Still')).status, 200);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('mlds start on a config nested 100,000 levels deep exits 78 and names the fault', () => {
  const sd = serviceDir(baseConfig());
  try {
    writeFileSync(sd.configFile, JSON.stringify(baseConfig()).replace(/}$/, `,"extra":${nested(100_000)}}`));
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'start', '--config', sd.configFile, '--state-dir', sd.stateDir, '--port', '0'],
      { cwd: REPO, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 78, r.stderr.slice(0, 500));
    assert.match(r.stderr, /\/extra(\/a){63}: nests objects and arrays more than 64 levels deep/);
  } finally {
    sd.cleanup();
  }
});
