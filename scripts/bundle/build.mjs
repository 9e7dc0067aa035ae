// Bundles the compiled service (dist/cli.js and what it imports) into one CommonJS file,
// dist/bundle/mlds.cjs, that dist/launch.cjs runs from V8's code cache: a start then reads one
// file and compiles nothing it compiled last time, instead of resolving, reading and compiling
// some 300 modules (docs/performance.md, "Start").
//
// The file holds the module already inside node's module wrapper, a function expression
// `(function (exports, require, module, __filename, __dirname) {...})`, with no hashbang, in
// ASCII: dist/launch.cjs reads it one byte a character (V8 keeps such a string at half the size of
// a two-byte one) and compiles it as it is, where wrapping it would make another copy of 1.7 MB.
// It is written to a temporary name and renamed over the old one, so a service starting meanwhile
// reads one whole build; a running service read its own copy at its start and reads no file of
// the package again.
//
// dist/bundle/ is two folders below the package root, as every dist/<concern>/ module is, so
// the paths the modules build from import.meta.url (fonts/, native/, package.json) stay right.
// Left outside (loaded from node_modules when used): native addons, and packages only an optional
// capability loads, so a capability not configured costs no source in memory either. pino is in:
// the service writes through its destination and multistream and never starts a transport, the
// one part of it that starts a worker thread by file name; outside, its 31 files (with what it
// requires) were read and compiled at every start, some 13 ms of CPU here.
/* global console */
import { build } from 'esbuild';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXTERNAL = [
  'canvas', 'serialport', '@serialport/*', 'modbus-serial', 'playwright-core',
  'mqtt', 'prom-client', 'yauzl', 'yazl', 'gtfs-realtime-bindings', 'fast-xml-parser',
];

/**
 * `requireCjs('pkg')` (util/require-cjs.ts: createRequire, for CommonJS packages) is a plain
 * `require('pkg')` inside the bundle, so the package is bundled (and cached) too; it still
 * runs only when that line runs.
 */
const requireCjsInBundle = {
  name: 'require-cjs',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return {
        contents: text.replace(/\brequireCjs\((['"])([^'"]+)\1\)/g, (all, q, spec) =>
          (EXTERNAL.some((e) => spec === e || spec.startsWith(`${e.replace('/*', '')}/`)) ? all : `require(${q}${spec}${q})`)),
        loader: 'js',
      };
    });
  },
};

// The worker threads (the screenshot encoder's, the feeds' decoder, the schedule's reader, the
// alerts' CAP parser), as text the bundle carries: encoder.ts, decoder.ts, schedule-reader.ts and
// cap-decoder.ts start their worker from it, so no file of the package is read after the start.
const workerText = async (file) => (await build({
  entryPoints: [path.join(ROOT, 'dist', file)],
  bundle: true, platform: 'node', format: 'iife', target: 'node20', packages: 'external',
  minifyWhitespace: true, charset: 'ascii', legalComments: 'none', logLevel: 'warning', write: false,
})).outputFiles[0].text;
const workers = {
  MLDS_ENCODE_WORKER: await workerText('render/encode-worker.js'),
  MLDS_FEED_WORKER: await workerText('feeds/decode-worker.js'),
  MLDS_SCHEDULE_WORKER: await workerText('feeds/schedule-worker.js'),
  MLDS_CAP_WORKER: await workerText('alerts/cap-worker.js'),
};
const result = await build({
  entryPoints: [path.join(ROOT, 'dist/cli.js')],
  outfile: path.join(ROOT, 'dist/bundle/mlds.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: EXTERNAL,
  // One import.meta.url for every module: the bundle's own (see above).
  define: { 'import.meta.url': '__mldsBundleUrl', ...Object.fromEntries(Object.entries(workers).map(([k, v]) => [k, JSON.stringify(v)])) },
  banner: { js: "(function (exports, require, module, __filename, __dirname) {const __mldsBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: '\n})' },
  write: false,
  // Whitespace only: names stay readable in stack traces and logs.
  minifyWhitespace: true,
  // ASCII source: V8 keeps it one byte a character (a two-byte string would double its memory).
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [requireCjsInBundle],
});
const [file] = result.outputFiles;
// The entry's hashbang, which esbuild keeps above the banner, is not JavaScript inside the wrapper.
const text = file.text.replace(/^#!.*\n/, '');
if (!text.startsWith('(function (exports, require, module, __filename, __dirname) {')) throw new Error('bundle: the module wrapper is not at the start');
// eslint-disable-next-line no-control-regex
const wide = /[^\x00-\x7f]/.exec(text);
if (wide) throw new Error(`bundle: a character outside ASCII at offset ${wide.index} (launch.cjs reads the file one byte a character)`);
// A fresh clone has no dist/bundle/ yet (esbuild writes nothing itself here).
await mkdir(path.dirname(file.path), { recursive: true });
await writeFile(`${file.path}.tmp`, text);
await rename(`${file.path}.tmp`, file.path);
// The launcher the unit runs (src/launch.ts) as one CommonJS file: node starts a CommonJS entry
// point without its ES module loader. dist/cli.js, which it imports when there is no bundle,
// stays an ES module of its own.
const launcher = (await build({
  entryPoints: [path.join(ROOT, 'dist/launch.js')],
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['./cli.js'],
  define: { 'import.meta.url': '__mldsLauncherUrl' },
  banner: { js: "const __mldsLauncherUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none', logLevel: 'warning', write: false,
})).outputFiles[0].text.replace(/^#!.*\n/, '');
await writeFile(path.join(ROOT, 'dist/launch.cjs.tmp'), `#!/usr/bin/env node\n${launcher}`);
await rename(path.join(ROOT, 'dist/launch.cjs.tmp'), path.join(ROOT, 'dist/launch.cjs'));
// The worker used to be a file of its own here; one left by an older build is read by nothing.
await rm(path.join(ROOT, 'dist/bundle/encode-worker.js'), { force: true });
const out = Object.values(result.metafile.outputs)[0];
console.log(`make: dist/bundle/mlds.cjs ${(out.bytes / 1024).toFixed(0)} KB from ${Object.keys(out.inputs).length} modules`);
