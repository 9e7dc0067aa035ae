// The normalized `speech`, `alerts` and `geocodes` sections (docs/speech.md, docs/alerts.md).

/** docs/configuration.md, `speech`. */
export interface SpeechSettings {
  /** espeak-ng voice (`-v`). */
  voice: string;
  /** Words per minute (`-s`). */
  rate: number;
  /** 0..100; espeak-ng's amplitude (`-a`) is twice it. */
  volume: number;
  /** Absolute path of the sound in sounds/ played before each announcement; undefined: none. */
  chime?: string;
  /** Minutes after local midnight; `from` > `to` spans midnight. Only priority announcements are spoken inside. */
  quietHours?: { from: number; to: number; text: string };
  /**
   * The volume from each time of day (minutes after local midnight, ascending) until the next;
   * before the first, the last of the day before. Undefined: `volume` all day.
   */
  volumeSchedule?: Array<{ at: number; volume: number; text: string }>;
}

/** docs/alerts.md: one CAP feed or alert URL and where its alerts show. */
export interface AlertFeedConfig {
  url: string;
  interval: number;
  /** Every display of the configuration when the file names none. */
  displays: string[];
  show: { layout: string; area: string };
  priority: number;
  template: string;
  languages: string[];
  test: boolean;
  speak: boolean;
}
export interface GeocodeConfig {
  valueName: string;
  value: string;
}
