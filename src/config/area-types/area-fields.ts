// What each area type accepts, written once: the type names, and per type the fields it takes
// with their schemas. The schema's area (its `type` enum and properties), the AreaType union,
// each type's list of fields (APPLIES_TO, unknown-field faults) and the fields of each type's
// normalized area (normalized-area.ts) all come from this table; the type modules beside it
// hold only behaviour.
import { bool, int, names, num, rgb, rgba, str255 } from '../schema-parts.js';

/** Fields every area takes. */
export const COMMON_FIELDS = {
  coordinates: { type: 'string', pattern: '^\\s*\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s*$' },
  ttl: int(0, 31_536_000),
  backgroundColor: rgba,
  dispEffect: int(1, 15),
  clearEffect: int(1, 15),
} as const;

const defaultValue = { defaultValue: str255 } as const;
const params = { params: names({ additionalProperties: { type: 'string', maxLength: 2048 } }) } as const;

/** How a text looks; date areas share these. */
export const TEXT_LOOK = {
  align: { enum: ['center', 'right', 'left'] },
  font: str255,
  fontSize: int(1, 4000),
  fontColor: rgb,
} as const;

/** How glyphs are drawn; date areas take it too. */
export const GLYPH_LOOK = { antialias: { enum: ['default', 'none'] } } as const;

/** A line that scrolls when it does not fit. */
export const SCROLLING = {
  textFromStart: bool,
  textLiveUpdate: bool,
  headToTail: int(0, 1000),
  scrollSpeed: int(0, 8),
} as const;

/** A table's columns, left to right: a value's lines are rows, a tab separates their cells. */
const COLUMNS = {
  type: 'array',
  minItems: 1,
  maxItems: 16,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['width'],
    // `field`: what a departures area's column shows (text areas take none).
    properties: {
      width: int(1, 4000),
      align: { enum: ['left', 'center', 'right'] },
      gap: int(0, 4000),
      field: { enum: ['route', 'destination', 'platform', 'countdown', 'time', 'spacer', 'accessible', 'occupancy'] },
    },
  },
} as const;

/** The sign-text layout: pixel fonts, lines, pages, fit, MULTI (docs/rendering.md). */
export const SIGN_TEXT = {
  ...GLYPH_LOOK,
  wrap: bool,
  lineSpacing: int(0, 1000),
  valign: { enum: ['top', 'middle', 'bottom'] },
  overflow: { enum: ['scroll', 'pages', 'scroll-up'] },
  pageSeconds: num(0.1, 86400),
  /** Pages and scroll loops counted from the Unix epoch ("clock") or from the command ("free"). */
  sync: { enum: ['clock', 'free'] },
  fit: { enum: ['none', 'shrink'] },
  minFontSize: int(1, 4000),
  fonts: { type: 'array', maxItems: 16, items: str255 },
  graphics: { type: 'array', maxItems: 64, items: str255 },
  markup: { enum: ['none', 'multi'] },
  scrollDirection: { enum: ['left', 'right', 'up'] },
  columns: COLUMNS,
  speak: bool,
} as const;

const freeText = { ...defaultValue, ...TEXT_LOOK, ...SCROLLING, ...SIGN_TEXT } as const;

const boardText = { type: 'string', maxLength: 64 } as const;
/** GTFS-realtime OccupancyStatus names, the keys of `occupancyTexts`. */
export const OCCUPANCY = [
  'EMPTY',
  'MANY_SEATS_AVAILABLE',
  'FEW_SEATS_AVAILABLE',
  'STANDING_ROOM_ONLY',
  'CRUSHED_STANDING_ROOM_ONLY',
  'FULL',
  'NOT_ACCEPTING_PASSENGERS',
  'NO_DATA_AVAILABLE',
  'NOT_BOARDABLE',
] as const;
const routeList = { type: 'array', maxItems: 256, items: { type: 'string', minLength: 1, maxLength: 255 } } as const;
/** Which departures a board shows: all of the lists given must hold (an empty or absent list: all). */
const BOARD_FILTERS = {
  type: 'object',
  additionalProperties: false,
  properties: {
    routes: routeList,
    directions: { type: 'array', maxItems: 2, items: int(0, 1) },
    headsigns: { type: 'array', maxItems: 256, items: { type: 'string', minLength: 1, maxLength: 255 } },
  },
} as const;
/**
 * A departure board's own fields: which departures it shows and how its rows read. The
 * normalized area holds them together as its `departures` (normalized-area.ts).
 */
export const BOARD_FIELDS = {
  feed: { type: 'string', minLength: 1, maxLength: 255 },
  stops: { type: 'array', minItems: 1, maxItems: 64, items: { type: 'string', minLength: 1, maxLength: 255 } },
  rows: int(1, 64),
  routes: routeList,
  filters: BOARD_FILTERS,
  walkMinutes: int(0, 120),
  groupBy: { enum: ['platform'] },
  platformChangedMark: boardText,
  accessibleText: boardText,
  occupancyTexts: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(OCCUPANCY.map((k) => [k, boardText])) as Record<
      (typeof OCCUPANCY)[number],
      typeof boardText
    >,
  },
  nowText: boardText,
  minutesText: boardText,
  scheduledMark: boardText,
  cancelledText: boardText,
  noDataText: { type: 'string', maxLength: 255 },
  noDeparturesText: { type: 'string', maxLength: 255 },
  timezone: { type: 'string', minLength: 1, maxLength: 64 },
  staleAfter: int(1, 86400),
  announceAt: int(0, 120),
  announceText: { type: 'string', minLength: 1, maxLength: 255 },
  alertArea: { type: 'string', minLength: 1, maxLength: 255 },
  alertPriority: int(1, 9),
} as const;
/** A departure board: rows from a feed (docs/configuration.md, "Departure boards"). */
const DEPARTURES = {
  ...TEXT_LOOK,
  ...GLYPH_LOOK,
  fonts: SIGN_TEXT.fonts,
  overflow: SIGN_TEXT.overflow,
  pageSeconds: SIGN_TEXT.pageSeconds,
  sync: SIGN_TEXT.sync,
  fit: SIGN_TEXT.fit,
  minFontSize: SIGN_TEXT.minFontSize,
  lineSpacing: SIGN_TEXT.lineSpacing,
  valign: SIGN_TEXT.valign,
  columns: COLUMNS,
  ...BOARD_FIELDS,
} as const;
const media = { ...defaultValue, ...params } as const;

/**
 * Every area type and the fields it takes besides COMMON_FIELDS, in the specification's order
 * (fault messages list types in it: "only to text, dynamic").
 */
export const AREA_FIELDS = {
  static: { ...defaultValue, ...params, ...TEXT_LOOK, ...SIGN_TEXT },
  text: freeText,
  dynamic: freeText,
  image: media,
  video: media,
  date: { ...TEXT_LOOK, ...GLYPH_LOOK, dateOffset: num(-14, 14), dateFormat: { type: 'string', maxLength: 255 } },
  audio: media,
  web: { ...media, xy: { type: 'string', pattern: '^\\s*\\d+\\s+\\d+\\s*$' } },
  departures: DEPARTURES,
} as const;

export type AreaType = keyof typeof AREA_FIELDS;

/** The area types, in the specification's order. */
export const AREA_TYPE_NAMES = Object.keys(AREA_FIELDS) as AreaType[];

/** The fields `type` takes besides COMMON_FIELDS. */
export function fieldsOf(type: AreaType): readonly string[] {
  return Object.keys(AREA_FIELDS[type]);
}

/** The schema of an area: the common fields, the type's name, and every field some type takes. */
export function areaSchema(): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['coordinates', 'type'],
    properties: {
      ...COMMON_FIELDS,
      type: { enum: AREA_TYPE_NAMES },
      ...Object.assign({}, ...AREA_TYPE_NAMES.map((t) => AREA_FIELDS[t])),
    },
  };
}
