// dist/launch.cjs, as the unit starts the service: the bundle, its code cache written after the
// start, used by the next start, a damaged one refused and written again; the bundle serves
// commands and screenshots (its encoder thread) like dist/cli.js, and is read, never mapped; a
// start compiles from node_modules only what cannot be in the bundle.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  REPO,
  baseConfig,
  decode,
  exampleConfig,
  near,
  serviceDir,
  until,
  type ServiceDir,
} from './helpers/service.js';
import { LISTEN_MS, emulated } from './helpers/emulation.js';

const LAUNCH = path.join(REPO, 'dist/launch.cjs');
const BUNDLE = path.join(REPO, 'dist/bundle/mlds.cjs');
const cacheDir = mkdtempSync(path.join(tmpdir(), 'mlds-code-cache-'));
const sd = serviceDir(baseConfig());
after(() => {
  rmSync(cacheDir, { recursive: true, force: true });
  sd.cleanup();
});

interface Started {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

async function launch(env: Record<string, string> = {}, dir: ServiceDir = sd): Promise<Started> {
  const child = spawn(
    process.execPath,
    [LAUNCH, 'start', '--config', dir.configFile, '--port', '0', '--state-dir', dir.stateDir],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, MLDS_CODE_CACHE_DIR: cacheDir, MLDS_CODE_CACHE_AFTER_MS: '500', ...env },
    },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  await until(() => /listening on port \d+/.test(err) || child.exitCode !== null, LISTEN_MS, 'the service to listen');
  assert.equal(child.exitCode, null, err);
  return { child, url: `http://127.0.0.1:${/listening on port (\d+)/.exec(err)![1]}`, stderr: () => err };
}

async function stop(s: Started): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

async function codeCache(s: Started): Promise<{ bundle: boolean; state: string; written?: string; error?: string }> {
  const status = (await (await fetch(`${s.url}/status`)).json()) as {
    codeCache?: { bundle: boolean; state: string; written?: string };
  };
  assert.ok(status.codeCache, '/status reports the code cache when started through dist/launch.cjs');
  return status.codeCache;
}

const caches = () => readdirSync(cacheDir).filter((f) => f.endsWith('.v8cache'));

test(
  "the bundle is built (make build): ASCII, already wrapped as node's module function, the encoder's worker " +
    'inside it',
  () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run make build`);
    const bundle = readFileSync(BUNDLE);
    assert.ok(
      bundle.every((b) => b < 0x80),
      'one byte a character',
    );
    assert.ok(bundle.toString('latin1').startsWith('(function (exports, require, module, __filename, __dirname) {'));
    assert.deepEqual(readdirSync(path.dirname(BUNDLE)), ['mlds.cjs'], 'the bundle is the one file the launcher reads');
  },
);

test(
  'dist/launch.cjs runs the bundle: version, and a command drawn and shown on /screenshot',
  { timeout: LISTEN_MS * 2 },
  async () => {
    const v = spawnSync(process.execPath, [LAUNCH, '--version'], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout.trim(), /^\d+\.\d+\.\d+$/);
    const s = await launch({ MLDS_CODE_CACHE_DIR: '' });
    try {
      assert.deepEqual(await codeCache(s), { bundle: true, state: 'off' });
      assert.equal((await fetch(`${s.url}/mlds?id=main&layout=l1&title=Hi`)).status, 200);
      const png = await fetch(`${s.url}/screenshot?id=main`);
      assert.equal(png.status, 200);
      const img = await decode(Buffer.from(await png.arrayBuffer()));
      assert.equal(img.width, 200);
      // The title's blue background right of the short text.
      assert.ok(near(img.at(190, 40), [0, 0, 255]), `pixel ${img.at(190, 40)}`);
    } finally {
      await stop(s);
    }
  },
);

test(
  'the first start writes the code cache, the next uses it, a damaged one is refused and written again',
  { timeout: LISTEN_MS * 4 },
  async () => {
    let s = await launch();
    try {
      assert.equal((await codeCache(s)).state, 'absent');
      await until(() => caches().length === 1, emulated ? 60_000 : 10_000, 'the cache to be written');
      const written = (await codeCache(s)).written;
      assert.equal(written, path.join(cacheDir, caches()[0]));
      // The name binds it to this bundle, this Node.js and this architecture.
      assert.match(
        caches()[0],
        new RegExp(`^mlds-\\d+-\\d+-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8cache$`),
      );
    } finally {
      await stop(s);
    }

    s = await launch();
    try {
      assert.equal((await codeCache(s)).state, 'used');
      assert.equal((await fetch(`${s.url}/mlds?id=main&layout=l2&other=cached`)).status, 200);
    } finally {
      await stop(s);
    }

    const file = path.join(cacheDir, caches()[0]);
    writeFileSync(file, Buffer.alloc(4096, 7));
    // An old build's cache goes once this build's is written.
    writeFileSync(path.join(cacheDir, 'mlds-1-1-v0.0.0-x.v8cache'), 'old');
    s = await launch();
    try {
      assert.equal((await codeCache(s)).state, 'rejected');
      await until(
        async () => (await codeCache(s)).written !== undefined,
        emulated ? 60_000 : 10_000,
        'the cache to be written again',
      );
      assert.deepEqual(caches(), [path.basename(file)]);
    } finally {
      await stop(s);
    }

    s = await launch();
    try {
      assert.equal((await codeCache(s)).state, 'used');
    } finally {
      await stop(s);
    }
  },
);

test(
  "the bundle is the process's own copy: no mapping of it, so a rewrite of the file cannot reach the running service",
  { timeout: LISTEN_MS * 2 },
  async () => {
    const s = await launch({ MLDS_CODE_CACHE_DIR: '' });
    try {
      assert.equal((await fetch(`${s.url}/mlds?id=main&layout=l1&title=Hi`)).status, 200);
      const maps = readFileSync(`/proc/${s.child.pid}/maps`, 'utf8');
      assert.ok(
        !maps.includes(path.dirname(BUNDLE)),
        `dist/bundle/ is mapped:\n${maps
          .split('\n')
          .filter((l) => l.includes(path.dirname(BUNDLE)))
          .join('\n')}`,
      );
    } finally {
      await stop(s);
    }
  },
);

test(
  "the unit's start of the example configuration reads from node_modules only node-canvas, and sets up no ES " +
    'module loader',
  { timeout: LISTEN_MS * 2 },
  async () => {
    assert.match(
      readFileSync(path.join(REPO, 'systemd/mlds.service'), 'utf8'),
      /^ExecStart=\S+ \/opt\/mlds\/dist\/launch\.cjs /m,
      'the unit runs this launcher',
    );
    const example = serviceDir(exampleConfig());
    // NODE_DEBUG: node's loaders name every file they load (the bundle is compiled by the launcher, not loaded) and
    // what the ES module loader does.
    const s = await launch({ MLDS_CODE_CACHE_DIR: '', NODE_DEBUG: 'module,esm' }, example);
    try {
      await until(async () => (await fetch(`${s.url}/status`)).status === 200, LISTEN_MS, 'the service to be ready');
      const loaded = [...new Set([...s.stderr().matchAll(/ load "([^"]+)"/g)].map((m) => path.relative(REPO, m[1])))];
      const packages = [...new Set(loaded.filter((f) => f.startsWith('node_modules/')).map((f) => f.split('/')[1]))];
      assert.deepEqual(
        packages,
        ['canvas'],
        `loaded from node_modules, each compiled without the code cache:\n${loaded.join('\n')}`,
      );
      const esm = s
        .stderr()
        .split('\n')
        .filter((l) => /^ESM \d+:/.test(l));
      assert.deepEqual(esm.slice(0, 3), [], 'the ES module loader was set up at the start');
    } finally {
      await stop(s);
      example.cleanup();
    }
  },
);
