// The seam between the service and RAUC, the A/B update controller (after serialport's
// bindings-interface: a small interface, each method saying what it guarantees). The real side
// is rauc-busctl.ts (RAUC's D-Bus service); what the service does with it is update-component.ts.
import type { SlotStatus } from '../capability/update-status.js';

/** One slot as RAUC's GetSlotStatus reports it (the shape /status shows). */
export type RaucSlot = SlotStatus;

/** RAUC's Progress property: how far an installation is. */
export interface RaucProgress {
  percent: number;
  message: string;
  /** Nesting depth of the step (1 is the whole installation). */
  depth: number;
}

export type RaucInstallResult = { ok: true } | { ok: false; error: string };

export interface RaucClient {
  /**
   * The bootname of the slot the system booted from (RAUC's BootSlot). Rejects with an
   * MldsError MLDS_UNAVAILABLE, naming the reason, when no RAUC service answers.
   */
  bootSlot(): Promise<string>;
  /** Every slot RAUC knows, in RAUC's order. Rejects as bootSlot does. */
  slots(): Promise<RaucSlot[]>;
  /**
   * Installs the bundle at `bundlePath` (a file RAUC can read) into the other slot and marks it
   * to be booted next; `onProgress` hears each change of RAUC's Progress while it runs.
   * Resolves once RAUC is idle again: ok, or RAUC's LastError. Rejects with MLDS_UNAVAILABLE
   * when RAUC cannot be asked, and with MLDS_UPDATE_BUSY when RAUC is busy with another
   * operation (nothing was started then).
   */
  install(bundlePath: string, onProgress: (p: RaucProgress) => void): Promise<RaucInstallResult>;
  /**
   * Marks the booted or the other slot good (keeps it bootable, ends the boot attempts' count)
   * or bad (never boots it). Resolves with RAUC's slot name and message; rejects with
   * MLDS_UNAVAILABLE when RAUC cannot be asked, or with RAUC's refusal.
   */
  mark(state: 'good' | 'bad', slot: 'booted' | 'other'): Promise<{ slot: string; message: string }>;
}
