import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadImage } from 'canvas';
import { REPO, baseConfig, serviceDir, until } from './helpers/service.js';
import { LISTEN_MS } from './helpers/emulation.js';

const CLI = path.join(REPO, 'dist/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });

test('the built CLI exists (make build)', () => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run make build`);
});

test('-V prints the package version, -h the usage', () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['-V', '--version']) {
    const r = run(flag);
    assert.equal(r.status, 0);
    assert.equal(r.stdout.trim(), pkg.version);
  }
  for (const flag of ['-h', '--help']) {
    const r = run(flag);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /mlds start/);
    assert.match(r.stdout, /mlds test/);
    assert.match(r.stdout, /mlds fleet rollout --group G FILE --steps/);
  }
  assert.equal(run('bogus').status, 64);
});

test('mlds fleet: usage errors are said before any broker is asked, and exit 64', () => {
  const cases: Array<[string[], RegExp]> = [
    [['fleet'], /give status, apply or rollout/],
    [['fleet', 'restart'], /unknown fleet command "restart"/],
    [['fleet', 'apply', 'x.json', '--url', 'mqtt://127.0.0.1:1'], /give one of --group G or --unit U/],
    [['fleet', 'apply', '--group', 'g', '--url', 'mqtt://127.0.0.1:1'], /give the desired document FILE/],
    [['fleet', 'rollout', '--group', 'g', 'x.json', '--healthy-for', '5'], /--steps is needed/],
    [
      ['fleet', 'rollout', '--group', 'g', 'x.json', '--steps', '1,200%', '--healthy-for', '5'],
      /"200%" is not a share/,
    ],
    [['fleet', 'rollout', '--group', 'g', 'x.json', '--steps', '1'], /--healthy-for N is needed/],
    [
      ['fleet', 'rollout', '--group', 'g', 'x.json', '--steps', '1', '--healthy-for', '9', '--timeout', '9'],
      /--timeout must be longer/,
    ],
    [['fleet', 'status', '--url', 'mqtt://user@host:1883'], /no user name or path in it/],
    [['fleet', 'status'], /no broker: give --url/],
  ];
  for (const [args, said] of cases) {
    const r = run(...args);
    assert.equal(r.status, 64, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, said);
  }
});

test('mlds test: a faulty configuration prints every fault with its path and exits 78', () => {
  const c = baseConfig();
  c.port = '22';
  c.displays.main.layout.l1.title.scrollSpeed = '11';
  const sd = serviceDir(c);
  try {
    const r = run('test', '--config', sd.configFile);
    assert.equal(r.status, 78);
    assert.match(r.stderr, /\/port: must be between 1025 and 65535/);
    assert.match(r.stderr, /\/displays\/main\/layout\/l1\/title\/scrollSpeed: must be between 0 and 8/);
  } finally {
    sd.cleanup();
  }
});

test('mlds test: a good configuration renders every layout of every display to PNG', async () => {
  const sd = serviceDir(baseConfig());
  try {
    const out = path.join(sd.dir, 'out');
    const r = run('test', '--config', sd.configFile, '--out', out);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readdirSync(out).sort(), ['main--l1.png', 'main--l2.png']);
    const img = await loadImage(path.join(out, 'main--l1.png'));
    assert.deepEqual([img.width, img.height], [200, 100]);
  } finally {
    sd.cleanup();
  }
});

test('mlds test: warns of configured texts that will scroll, lists the areas that scroll, and still exits 0', () => {
  const c = baseConfig();
  c.displays.main.layout.l1.title.defaultValue = 'Lotnisko Chopina Terminal A';
  c.displays.main.layout.l1.sign.params.c = 'Gamma Delta Epsilon Zeta';
  const sd = serviceDir(c);
  try {
    const out = path.join(sd.dir, 'out');
    const r = run('test', '--config', sd.configFile, '--out', out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stderr,
      /^mlds: warning: \/displays\/main\/layout\/l1\/title: defaultValue "Lotnisko Chopina Terminal A" is \d+ px wide and will scroll in 200 px$/m,
    );
    assert.match(
      r.stderr,
      /^mlds: warning: \/displays\/main\/layout\/l1\/sign: params "c" text "Gamma Delta Epsilon Zeta" is \d+ px wide and will scroll in 100 px$/m,
    );
    assert.doesNotMatch(r.stderr, /Alpha|Beta/);
    // The default on show scrolls (its preview starts at its beginning: test/preview.test.ts); "Def" fits.
    assert.match(r.stdout, /^ {2}main\/l1\/title: scrolls \(text is \d+ px wide, area 200 px\)$/m);
    assert.doesNotMatch(r.stdout, /sign: scrolls/);
    assert.deepEqual(readdirSync(out).sort(), ['main--l1.png', 'main--l2.png']);
  } finally {
    sd.cleanup();
  }
});

test('mlds test: the example is valid, with no warning and nothing scrolling in its previews', () => {
  const sd = serviceDir({});
  try {
    const r = run('test', '--config', path.join(REPO, 'examples/config.json'), '--out', path.join(sd.dir, 'out'));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.doesNotMatch(r.stdout, /scrolls/);
    assert.deepEqual(readdirSync(path.join(sd.dir, 'out')).sort(), ['lcd1--board.png', 'led1--departure.png']);
  } finally {
    sd.cleanup();
  }
});

test('mlds start: exit 78 on a configuration that cannot start; serves and stops on SIGTERM', async () => {
  const bad = serviceDir({ displays: {} });
  try {
    const r = run('start', '--config', bad.configFile, '--state-dir', bad.stateDir);
    assert.equal(r.status, 78);
    assert.match(r.stderr, /\/displays/);
  } finally {
    bad.cleanup();
  }

  const sd = serviceDir(baseConfig());
  const logDir = path.join(sd.dir, 'logs');
  const child = spawn(
    process.execPath,
    [CLI, 'start', '--config', sd.configFile, '--port', '0', '--state-dir', sd.stateDir, '--log-dir', logDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    await until(() => /listening on port \d+/.test(err), LISTEN_MS, 'the service to listen');
    const port = /listening on port (\d+)/.exec(err)![1];
    const res = await fetch(`http://127.0.0.1:${port}/mlds?id=main&layout=l1&title=Logged`);
    assert.equal(res.status, 200);
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    // Every request, its result and the configuration load are in today's log file.
    const log = readFileSync(path.join(logDir, 'mlds.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(log.some((l) => l.msg === 'configuration loaded' && typeof l.time === 'string'));
    assert.ok(log.some((l) => l.msg === 'request' && String(l.url).includes('title=Logged') && l.status === 200));
    // The accepted command's facts are on its request line; the boot replay's on its own.
    assert.ok(log.some((l) => l.msg === 'request' && l.id === 'main' && l.layout === 'l1'));
  } finally {
    child.kill('SIGKILL');
    sd.cleanup();
  }
});

test('SIGHUP reloads the configuration like /reload_config', async () => {
  const c = baseConfig();
  const sd = serviceDir(c);
  const child = spawn(
    process.execPath,
    [CLI, 'start', '--config', sd.configFile, '--port', '0', '--state-dir', sd.stateDir],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    await until(() => /listening on port \d+/.test(err), LISTEN_MS, 'the service to listen');
    const url = `http://127.0.0.1:${/listening on port (\d+)/.exec(err)![1]}/mlds?id=main&layout=l9`;
    assert.equal((await fetch(url)).status, 400);
    c.displays.main.layout.l9 = { x: { coordinates: '0 0 99 49', type: 'text', fontSize: '20' } };
    writeFileSync(sd.configFile, JSON.stringify(c));
    child.kill('SIGHUP');
    await until(async () => (await fetch(url)).status === 200, 10_000, 'layout l9 after SIGHUP');
  } finally {
    child.kill('SIGKILL');
    sd.cleanup();
  }
});
