// `make test-arm64` runs the suite on aarch64 under qemu-user (scripts/arm64/run.sh sets
// MLDS_TEST_EMULATION=qemu-user). A test that emulation alone breaks (a wall-clock bound
// ~10-20x slower code cannot meet, a syscall qemu-user does not translate) skips there with
// the reason, and runs as it is everywhere else: on the host and on real arm64 hardware.

import { skipReason } from './skip.js';

/** A skip reason under emulation, `undefined` (run) otherwise. */
export function underEmulation(why: string): string | undefined {
  const emulator = process.env.MLDS_TEST_EMULATION;
  return skipReason(emulator ? `under ${emulator}: ${why}` : undefined, 'hardware');
}

/** For a test that stays meaningful with more time: whether the run is under emulation. */
export const emulated = Boolean(process.env.MLDS_TEST_EMULATION);

/**
 * How long a spawned service may take to say it listens: a bound against a hang, not a speed
 * check (bench/start.ts measures the start). Under qemu-user a start takes some 10-15 s, more
 * when the machine is busy (one ran past 15 s while other work shared the two cores).
 */
export const LISTEN_MS = emulated ? 120_000 : 30_000;
