// What the update component (src/update) shows at /status `components.update`, for those that
// read it without importing it: /metrics and the fleet's retained status; and what HTTP's
// /update and the MQTT `update` command ask of it, found by its key.
import { MldsError } from '../errors.js';
import { capabilityKey } from './capability-key.js';

export type UpdateState = 'idle' | 'downloading' | 'installing' | 'rebooting' | 'failed';
export const UPDATE_STATES: readonly UpdateState[] = ['idle', 'downloading', 'installing', 'rebooting', 'failed'];

/**
 * How the last update ended: `rebooting` (installed, the reboot into it not yet seen),
 * `installed` (the unit runs the new slot; `markedGood` once mlds-mark-good kept it),
 * `fell-back` (the new slot did not stay up: the bootloader booted the old one again),
 * `failed` (refused or failed before any reboot: download, digest, RAUC).
 */
export type UpdateOutcome = 'rebooting' | 'installed' | 'fell-back' | 'failed';
export const UPDATE_OUTCOMES: readonly UpdateOutcome[] = ['rebooting', 'installed', 'fell-back', 'failed'];

/** One slot as RAUC's GetSlotStatus reports it. */
export interface SlotStatus {
  /** RAUC's slot name, `rootfs.0`. */
  name: string;
  /** The bootloader's name of the slot (`A`, `B`); the slot's name when it has none. */
  bootname: string;
  /** `booted`, `active` or `inactive`, as RAUC says. */
  state: string;
  /** The bootloader's verdict: `good` or `bad` (undefined when RAUC does not say). */
  bootStatus?: string;
  /** The version of the bundle last installed into the slot (undefined for a factory image). */
  version?: string;
  /** When that bundle was installed (ISO time, RAUC's clock). */
  installedAt?: string;
}

export interface LastUpdate {
  outcome: UpdateOutcome;
  /** The bundle's version as RAUC recorded it (absent when it failed before RAUC read it). */
  version?: string;
  /** The slot (bootname) it was installed into, and the one booted when it was. */
  slot?: string;
  from?: string;
  /** When it was asked for, and when the outcome was known (ISO times). */
  at: string;
  decidedAt?: string;
  markedGood?: boolean;
  message: string;
}

export interface UpdateStatus {
  state: UpdateState;
  /** 0..100 within the state (download, then installation); null when not known. */
  percent: number | null;
  message: string;
  /** The slot (bootname) the system booted from; null while RAUC does not answer. */
  bootSlot: string | null;
  slots: SlotStatus[];
  last?: LastUpdate;
  /** Why RAUC could not be asked, when it could not. */
  rauc?: string;
}

/** A step of a running update, as /status shows it. */
export interface UpdateStep {
  state: UpdateState;
  percent: number | null;
  message: string;
}

/** What HTTP's /update and the MQTT `update` command ask of the update component. */
export interface Updater {
  /**
   * Downloads the bundle at `url` (the URL rules, `updateMaxMB`), checks its SHA-256 and has
   * RAUC install it into the other slot; `onStep` hears each step. Resolves once installed
   * (the unit must then reboot: `reboot()`); rejects with MLDS_UPDATE_BUSY while another runs,
   * MLDS_UNAVAILABLE when RAUC does not answer, MLDS_DIGEST_MISMATCH, the fetch's codes, or
   * MLDS_UPDATE_FAILED with RAUC's error. Nothing is installed on any rejection.
   */
  update(
    url: string,
    sha256: string,
    onStep?: (s: UpdateStep) => void,
  ): Promise<{ message: string; slot: string; version?: string }>;
  /** Reboots into the installed slot (device/power.ts); a failure shows as state `failed`. */
  reboot(): Promise<void>;
}

/** Running where RAUC is (its system.conf exists) and the service has a state folder. */
export const UPDATE = capabilityKey<Updater>('update');

/** The update component where RAUC is, else MLDS_UNAVAILABLE saying why (HTTP's /update and MQTT's `update` alike). */
export function updaterOf(updater: Updater | undefined): Updater {
  if (!updater)
    throw new MldsError(
      'MLDS_UNAVAILABLE',
      'software updates need RAUC, which this system does not have (no /etc/rauc/system.conf; the A/B controller ' +
        'image has it)',
    );
  return updater;
}
