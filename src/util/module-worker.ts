import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread running the module `name` (a file beside `from`, e.g. 'encode-worker').
 * In the bundle the worker runs from `bundled`, its code as text the bundle carries (see
 * scripts/bundle/build.mjs), so no file of the package is read after the start and one rewritten
 * in place under the service cannot break it; its packages resolve from the bundle's folder, as
 * the bundle's own do. From source under tsx (tests) the worker loads tsx itself: Node 20 does
 * not apply --import to workers.
 */
export function startModuleWorker(
  from: string,
  name: string,
  bundled: string | undefined,
  options: WorkerOptions = {},
): Worker {
  if (typeof bundled === 'string') {
    return new Worker(
      `(function (require) ` +
        `{${bundled}\n})(require('node:module').createRequire(${JSON.stringify(fileURLToPath(from))}));`,
      { ...options, eval: true },
    );
  }
  if (from.endsWith('.ts'))
    return new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return ` +
        `import(${JSON.stringify(new URL(`./${name}.ts`, from).href)}); })`,
      { ...options, eval: true },
    );
  return new Worker(new URL(`./${name}.js`, from), options);
}

/**
 * Lowers the calling thread to `nice` on Linux (a thread's id works as a pid for setpriority),
 * so on a busy CPU the frame loop and commands go first. Elsewhere, or when not allowed, the
 * thread keeps the process's priority.
 */
export function lowerThreadPriority(nice: number): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // Not Linux, or not allowed.
  }
}
