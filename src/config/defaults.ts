// Values the configuration takes when the file says nothing (docs/decisions.md, "Defaults").
// A leaf module: the area type modules and the normalizer both read it.

export const DEFAULTS = {
  port: 9199,
  align: 'left',
  fontColor: { r: 255, g: 255, b: 255 },
  textFromStart: true,
  textLiveUpdate: false,
  headToTail: 5,
  scrollSpeed: 4,
  effect: 1,
  dateFormat: 'HH:mm:ss',
  infoScreenTtl: 0,
  logRetentionDays: 31,
  logMaxMB: 64,
  rateLimit: 50,
  effectDurationMs: 500,
  fps: 50,
  ddpPort: 4048,
  defaultFont: 'DejaVuSans.ttf',
  audioDevice: 'default',
  webRefreshSeconds: 60,
  /** Seconds the clock may be off its time source before /status says so. */
  maxClockSkew: 5,
  /** departures areas' texts and the age at which realtime data is stale. */
  departures: {
    nowText: 'now',
    minutesText: '{m} min',
    scheduledMark: '~',
    cancelledText: 'cancelled',
    platformChangedMark: '!',
    accessibleText: '\u267F',
    occupancyTexts: {
      EMPTY: 'low',
      MANY_SEATS_AVAILABLE: 'low',
      FEW_SEATS_AVAILABLE: 'mid',
      STANDING_ROOM_ONLY: 'high',
      CRUSHED_STANDING_ROOM_ONLY: 'high',
      FULL: 'full',
      NOT_ACCEPTING_PASSENGERS: 'full',
    },
    noDataText: 'No live data',
    noDeparturesText: 'No departures',
    staleAfter: 180,
    announceText: 'Line {route} to {destination}, platform {platform}, in {m} minutes',
    alertPriority: 5,
  },
  alertMaxMB: 4,
  updateMaxMB: 512,
} as const;

/** The default font size when the file gives none: as large as fits comfortably. */
export function defaultFontSize(areaHeight: number): number {
  return Math.max(1, Math.floor(areaHeight * 0.7));
}
