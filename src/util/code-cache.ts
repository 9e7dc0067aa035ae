/**
 * Where the launcher (dist/launch.cjs) leaves what it did with V8's code cache, for /status (Symbol.for: the bundle
 * holds its own copy of this module).
 */
export const CODE_CACHE_KEY = Symbol.for('mlds.codeCache');

export interface CodeCacheReport {
  /** Started from dist/bundle/mlds.cjs (false: from dist/cli.js, no bundle built). */
  bundle: boolean;
  /** The folder the cache is kept in; absent: none configured, nothing is kept. */
  dir?: string;
  /** off: no folder; absent: first start of this build; rejected: V8 refused the file (it is written again); used. */
  state: 'off' | 'absent' | 'rejected' | 'used';
  /** The file written during this run. */
  written?: string;
  /** Why writing it failed. */
  error?: string;
}

/** What the launcher did, or undefined when the service was not started through it (tests, `node dist/cli.js`). */
export function codeCacheReport(): CodeCacheReport | undefined {
  return (globalThis as Record<symbol, unknown>)[CODE_CACHE_KEY] as CodeCacheReport | undefined;
}
