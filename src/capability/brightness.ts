// What others ask of the brightness component (src/brightness) without importing it: HTTP's
// /brightness and /blank, the fleet's admin commands and Home Assistant.
import { capabilityKey } from './capability-key.js';

/** Where a unit's brightness comes from, highest precedence first in src/brightness/precedence.ts. */
export type BrightnessMode = 'manual' | 'sensor' | 'shared-sensor' | 'url' | 'schedule' | 'daylight' | 'fixed';

/** One source of a unit's brightness as it stands now. */
export interface BrightnessSourceReport {
  mode: BrightnessMode;
  state: 'in use' | 'standing by' | 'failed';
  value?: number;
  source: string;
  reason?: string;
}

/** One physical unit's brightness, as /status `components.brightness.units` shows it. */
export interface UnitBrightness {
  /** The unit's MAIN display id (the id /brightness/<value>?id= takes). */
  id: string;
  displays: string[];
  brightness: number;
  /** Blanked: the output is given 0 while `brightness` waits for the unblank. */
  blanked: boolean;
  mode: BrightnessMode;
  source: string;
  since: string;
  sensorBrightness: boolean;
  /** Present while a higher source has failed and a lower one rules. */
  handover?: { from: BrightnessMode; to: BrightnessMode; reason: string; since: string };
  sources: BrightnessSourceReport[];
}

export interface BrightnessControl {
  /** Its /status facts; others read the units. */
  status(): { units: UnitBrightness[] };
  /** Blanks (or unblanks) the units whose MAIN ids are given and resolves once their outputs have the level. */
  setBlank(mainIds: string[], blank: boolean): Promise<void>;
  /**
   * Sets a manual brightness on the units whose MAIN ids are given (checked by the caller:
   * MAIN ids with sensorBrightness true) and resolves once every unit has been given its value.
   * `by` is who set it, as /status tells.
   */
  setManual(mainIds: string[], value: number, by?: 'http' | 'home-assistant'): Promise<void>;
  /**
   * A fleet's level on the units whose MAIN ids are given (any unit: no sensorBrightness needed); undefined gives them
   * back to their sources ("auto").
   */
  setFleetLevel(mainIds: string[], value: number | undefined): Promise<void>;
}

/** Always running (daylight is the lowest source); undefined only when it failed to start. */
export const BRIGHTNESS = capabilityKey<BrightnessControl>('brightness');
