// What others ask of the boot component (src/boot) without importing it: HTTP's /identify and
// the fleet's `identify` bring the info screen back; systemd's status line tells which screen
// each unit shows.
import { capabilityKey } from './capability-key.js';

/** /identify's longest info screen, in seconds. */
export const MAX_IDENTIFY_S = 3600;

/** What a unit shows: a boot screen, the info screen /identify asked for, or its displays. */
export type UnitShowing = 'info' | 'logo' | 'identify' | 'content';

/** A display's `startScreen.completeUrls`, visited once its unit's boot screens ended. */
export interface CompleteUrlVisit {
  display: string;
  /** Without query values. */
  url: string;
  result: 'pending' | 'ok' | 'failed';
  attempts: number;
  at?: string;
  httpStatus?: number;
  lastError?: string;
  nextAttemptAt?: string;
}

/** The boot component's /status facts (`components.boot`). */
export interface BootFacts {
  units: Array<{ unit: string; displays: string[]; showing: UnitShowing; until?: string }>;
  completeUrls: CompleteUrlVisit[];
}

/** A unit /identify now shows the info screen on (`until` null: ended). */
export interface IdentifiedUnit {
  unit: string;
  displays: string[];
  until: string | null;
}

export interface BootScreensControl {
  /**
   * Shows the info screen for `seconds` on every unit, or on the unit showing `displayId`;
   * 0 ends it. Returns the units it now shows on.
   */
  identify(seconds: number, displayId?: string): IdentifiedUnit[];
  status(): BootFacts;
}

/** Always running once the units are open. */
export const BOOT = capabilityKey<BootScreensControl>('boot');
