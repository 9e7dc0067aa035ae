// The normalized area: what src/config/normalize.ts makes of an area of the file, one shape per
// type. Each normalized field's TypeScript type is written once (NormalizedFields); which of them
// a type's area holds is area-fields.ts's list for that type, so an area has its own fields and
// no other. A field added to area-fields.ts without its type here fails to compile (below).
import type { Rgb, Rgba } from '../../frame.js';
import type { Column } from '../../text/columns.js';
import type { Align } from '../../text/doc.js';
import type { AREA_FIELDS, AreaType, BOARD_FIELDS, COMMON_FIELDS, SCROLLING, SIGN_TEXT } from './area-fields.js';

type Fields = typeof AREA_FIELDS;
/** The fields of the file type `T` takes besides the common ones. */
type FileField<T extends AreaType> = keyof Fields[T];
/** The values a field's schema enumerates, wherever a type takes it. */
type EnumOf<S> = S extends { readonly enum: ReadonlyArray<infer E> } ? E : never;
type SchemaOf<F extends PropertyKey> = { [T in AreaType]: F extends FileField<T> ? Fields[T][F] : never }[AreaType];
type OneOf<F extends PropertyKey> = EnumOf<SchemaOf<F>>;

/** Fields every area has (the file's `coordinates` as a rectangle). */
export interface AreaBase {
  id: string;
  /** Upper-left corner and size in pixels; the file's `x y X Y` is inclusive. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Seconds; undefined = content never expires. */
  ttl?: number;
  backgroundColor?: Rgba;
  dispEffect: number;
  clearEffect: number;
}

/** Every field a type may take, as normalized; an area holds those its type takes (AreaOf). */
export interface NormalizedFields {
  defaultValue?: string;
  /** Request key -> text (static), absolute path of a file in images/ (image, video, audio) or URL (web). */
  params: Record<string, string>;
  align: Align;
  /** Absolute path of the resolved .ttf/.otf/.bdf; undefined when it could not be (a fault said why). */
  font?: string;
  fontSize: number;
  fontColor: Rgb;
  /** Sign text (docs/configuration.md, "Sign text"); undefined: the default. */
  antialias?: OneOf<'antialias'>;
  textFromStart: boolean;
  textLiveUpdate: boolean;
  headToTail: number;
  scrollSpeed: number;
  wrap?: boolean;
  lineSpacing?: number;
  valign?: OneOf<'valign'>;
  overflow?: OneOf<'overflow'>;
  pageSeconds?: number;
  /** undefined: "clock" for pages, "free" for scrolls (docs/rendering.md, "Pages in step"). */
  sync?: OneOf<'sync'>;
  fit?: OneOf<'fit'>;
  minFontSize?: number;
  /** Absolute paths of the resolved `fonts` and `graphics` lists. */
  fonts?: string[];
  graphics?: string[];
  markup?: OneOf<'markup'>;
  scrollDirection?: OneOf<'scrollDirection'>;
  /** A table's columns: lines are rows, tabs separate cells; undefined: no table. */
  columns?: Column[];
  /** Each new value is read aloud when `speech` is configured. */
  speak?: boolean;
  /** Hours from UTC, may be fractional. */
  dateOffset?: number;
  dateFormat: string;
  xy?: { x: number; y: number };
}

export type DepartureField =
  'route' | 'destination' | 'platform' | 'countdown' | 'time' | 'spacer' | 'accessible' | 'occupancy';

/** A departures area's board: its feed, stops and texts (BOARD_FIELDS), and what each column shows. */
export interface DeparturesConfig {
  feed: string;
  stops: string[];
  /** Rows a page shows; undefined: as many as fit the area's height. */
  rows?: number;
  /** Only these routes (`routes`, or `filters.routes`: the same); undefined: all. */
  routes?: string[];
  /** Only departures of these GTFS direction_ids and these headsigns (destinations); undefined: all. */
  filters?: { directions?: number[]; headsigns?: string[] };
  /** Departures sooner than this many minutes are left out (a passenger could not reach them). */
  walkMinutes?: number;
  /** `platform`: rows in order of platform, then of time. */
  groupBy?: 'platform';
  /** Follows the platform of a departure whose platform changed. */
  platformChangedMark: string;
  /** An `accessible` cell of a departure whose vehicle takes a wheelchair. */
  accessibleText: string;
  /** An `occupancy` cell per GTFS-realtime OccupancyStatus name; a status without one shows nothing. */
  occupancyTexts: Record<string, string>;
  /** What each column (the area's `columns`, same order) shows. */
  fields: DepartureField[];
  nowText: string;
  minutesText: string;
  scheduledMark: string;
  cancelledText: string;
  noDataText: string;
  /** Shown when the feed answers and the board has no departure to show. */
  noDeparturesText: string;
  /** The zone of `time` cells; undefined: each departure's (its stop's, its agency's). */
  timezone?: string;
  /** Seconds after which realtime data counts as stale. */
  staleAfter: number;
  /** Minutes before a departure it is announced (by the speech capability); undefined: never. */
  announceAt?: number;
  announceText: string;
  /** The area of the same layout that shows the feed's alerts, and their priority level. */
  alertArea?: string;
  alertPriority: number;
}

/** Fields a type's area holds that the file does not write as such: made of other fields, or of top-level settings. */
interface Derived {
  /** Seconds between renders of its page (the top-level webRefreshSeconds, so a change reloads the display). */
  web: { refreshSeconds: number };
  /** BOARD_FIELDS, together. */
  departures: { departures: DeparturesConfig };
}
type DerivedOf<T extends AreaType> = T extends keyof Derived ? Derived[T] : unknown;

type Flat<T> = { [K in keyof T]: T[K] };

/** The normalized area of type `T` (a union of types: any of them). */
export type AreaOf<T extends AreaType> = T extends AreaType
  ? Flat<AreaBase & { type: T } & Pick<NormalizedFields, FileField<T> & keyof NormalizedFields> & DerivedOf<T>>
  : never;

/** A normalized area of any type; `type` tells which fields it has. */
export type AreaConfig = AreaOf<AreaType>;

/** An area of a type that takes field `F` (AreaTaking<'markup'>: the sign-text types). */
export type AreaTaking<F extends keyof NormalizedFields> = {
  [T in AreaType]: F extends FileField<T> ? AreaOf<T> : never;
}[AreaType];

/**
 * What laying a text out reads of its area (sign text, a line, a MULTI page's fit): the text's
 * look, and the sign-text and scroll fields where its type takes them (a date area takes none).
 */
export type TextArea = AreaBase &
  Pick<NormalizedFields, 'align' | 'fontSize' | 'fontColor'> &
  Partial<Pick<NormalizedFields, 'font' | keyof typeof SIGN_TEXT | keyof typeof SCROLLING>>;

// What the compiler holds to area-fields.ts (an error here names the field):
type Never<T extends never> = T;
type FileFieldOfAny = { [T in AreaType]: FileField<T> }[AreaType];
/** A field some type takes has no normalized type above, nor is it a board's. */
type _Untyped = Never<Exclude<FileFieldOfAny, keyof NormalizedFields | keyof typeof BOARD_FIELDS>>;
/** A normalized field no type takes. */
type _Unused = Never<Exclude<keyof NormalizedFields, FileFieldOfAny>>;
/** A board field DeparturesConfig does not hold. */
type _OffBoard = Never<Exclude<keyof typeof BOARD_FIELDS, keyof DeparturesConfig>>;
/** A field every area takes that AreaBase does not hold (`coordinates` is x, y, width, height). */
type _Baseless = Never<Exclude<keyof typeof COMMON_FIELDS, keyof AreaBase | 'coordinates'>>;
