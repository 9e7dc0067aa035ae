// Every test skip goes through skipReason. A skip is for what this machine cannot offer:
// hardware such as a sound card, root or a real CPU instead of qemu-user (`'hardware'`). A
// missing dependency that `make test` installs (a Debian package in the Makefile, the native
// helper, the built CLI) is a skip on a developer's machine but a failure under CI=true, so a
// fresh machine cannot pass with tests quietly left out.
import { test } from 'node:test';

export type SkipKind = 'dependency' | 'hardware';

const reported = new Set<string>();

/**
 * The `skip` option for a test: `reason` (skip) or undefined (run). Under CI=true a
 * `dependency` reason also registers a failing test that names it, once per reason and file.
 */
export function skipReason(reason: string | undefined, kind: SkipKind = 'dependency'): string | undefined {
  if (!reason) return undefined;
  if (kind === 'dependency' && process.env.CI === 'true' && !reported.has(reason)) {
    reported.add(reason);
    test(`CI=true: a dependency the Makefile installs is missing: ${reason}`, () => {
      throw new Error(`${reason} (a skip is only for hardware that cannot be there; run make test, which installs it)`);
    });
  }
  return reason;
}
