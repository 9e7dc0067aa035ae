// The volume in force: `speech.volumeSchedule` by the local time of day (the configuration's
// `timezone`), else `speech.volume`; a display's own `volume` is its share of that, so every
// display follows the night's lowering in its own proportion.
import type { SpeechSettings } from '../config/alert-speech-types.js';
import { minuteOfDay } from './quiet.js';

/** The unit's volume at `ms`. */
export function volumeInForce(s: SpeechSettings, ms: number, zone?: string): number {
  const plan = s.volumeSchedule;
  if (!plan?.length) return s.volume;
  const m = minuteOfDay(ms, zone);
  let v = plan[plan.length - 1].volume;
  for (const e of plan) if (e.at <= m) v = e.volume;
  return v;
}

/** A display's volume at `ms`: its share (`volume`, 0..100) of the unit's volume in force. */
export function displayVolume(s: SpeechSettings, own: number | undefined, ms: number, zone?: string): number {
  const unit = volumeInForce(s, ms, zone);
  return own === undefined ? unit : Math.round((unit * own) / 100);
}
