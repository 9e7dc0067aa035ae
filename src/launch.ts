#!/usr/bin/env node
// How the device starts the service: the bundle (dist/bundle/mlds.cjs, scripts/bundle/build.mjs)
// compiled with V8's code cache when one is kept, else dist/cli.js as tsc left it. The unit runs
// this file as dist/launch.cjs, one CommonJS file the build makes of it: an ES module as the
// entry point sets up node's ES module loader first, some 10 ms of a start's CPU here.
//
// Node 20 has no compile cache of its own (22 has), so this keeps one: V8's cached data of the
// bundle, taken once the service has run for a while (it then holds the functions a start and
// a first frame compiled), in $CACHE_DIRECTORY (systemd's CacheDirectory=) or $MLDS_CODE_CACHE_DIR.
// Without either nothing is written. The file's name carries the bundle's size and mtime, Node's
// version and the architecture: V8 checks its own version and flags but only the source's
// length, so a cache of another build of the same length must never be offered.
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { unitCacheDir } from './util/cache-dir.js';
import { CODE_CACHE_KEY, type CodeCacheReport } from './util/code-cache.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BUNDLE = path.join(HERE, 'bundle', 'mlds.cjs');
/**
 * After the start: the cache then holds what a start and the first frames compiled (MLDS_CODE_CACHE_AFTER_MS: tests).
 */
const WRITE_AFTER_MS = Number(process.env.MLDS_CODE_CACHE_AFTER_MS) || 10_000;

function cacheDir(): string | undefined {
  return process.env.MLDS_CODE_CACHE_DIR || unitCacheDir();
}

/**
 * The bundle's text and what it was, read whole at the start. V8 keeps a script's source for as
 * long as the script lives and compiles functions from it when they are first called, so it must
 * be this process's own copy: a source over the file's pages (a mapping) would fault (SIGBUS) once
 * the file is truncated, and feed V8 other text once it is rewritten in place, as cp, scp and
 * rsync --inplace do, and the next lazy compilation would kill the service. One descriptor for
 * both, so the size the cache's name carries is the size of the text compiled.
 */
function readBundle(): { source: string; st: Stats } {
  const fd = openSync(BUNDLE, 'r');
  try {
    return { st: fstatSync(fd), source: readFileSync(fd, 'latin1') };
  } finally {
    closeSync(fd);
  }
}

function runBundle(): void {
  const { source, st } = readBundle();
  const dir = cacheDir();
  const name = `mlds-${st.size}-${Math.trunc(st.mtimeMs)}-${process.version}-${process.arch}.v8cache`;
  const file = dir ? path.join(dir, name) : undefined;
  let cachedData: Buffer | undefined;
  if (file) {
    try {
      cachedData = readFileSync(file);
    } catch {
      /* first start of this build */
    }
  }
  // The file is already the module wrapper's function expression (scripts/bundle/build.mjs).
  const script = new vm.Script(source, {
    filename: BUNDLE,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const report: CodeCacheReport = {
    bundle: true,
    dir,
    state: !file ? 'off' : !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used',
  };
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_KEY] = report;
  // The bundle's require() resolves from its own folder, as node's loader would give it.
  const mod = new Module(BUNDLE);
  mod.filename = BUNDLE;
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    mod.exports,
    mod.exports,
    createRequire(BUNDLE),
    mod,
    BUNDLE,
    path.dirname(BUNDLE),
  );
  if (file && dir && report.state !== 'used') {
    setTimeout(() => {
      try {
        mkdirSync(dir, { recursive: true });
        // Caches of other builds are of no use again.
        for (const f of readdirSync(dir))
          if (f.startsWith('mlds-') && f.endsWith('.v8cache') && f !== name) rmSync(path.join(dir, f), { force: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, file);
        report.written = file;
      } catch (err) {
        report.error = (err as Error).message;
      }
    }, WRITE_AFTER_MS).unref();
  }
}

if (existsSync(BUNDLE)) runBundle();
// Not awaited: dist/launch.cjs (scripts/bundle/build.mjs) is this file as CommonJS, which has no top-level await.
else void import('./cli.js');
