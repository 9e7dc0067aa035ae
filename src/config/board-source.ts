// What a departures area draws from: the contract between the feeds capability, which makes a
// BoardSource and fills a unit's `boards` with it, and the departures area's drawer
// (render/content/departures.ts), which asks it each time the board is drawn. It stands in
// config/, below both: a query is made of the area's board settings (DeparturesConfig), and
// a board's state is what /status says of the area.

/** One departure as a board shows it. Times are ms since the epoch (UTC). */
export interface Departure {
  /** Stable across polls (trip and stop): a row kept in place, a departure announced once. */
  key: string;
  route: string;
  destination: string;
  /** '' when the feed gives none. */
  platform: string;
  /** The expected departure when live, else the scheduled one. */
  time: number;
  /** false: no live prediction (the board marks it with `scheduledMark`). */
  live: boolean;
  cancelled: boolean;
  /** The platform is not the timetabled one (GTFS-realtime assigned_stop_id, a SIRI quay change). */
  platformChanged?: boolean;
  /** GTFS direction_id of its trip, when the schedule gives one. */
  direction?: number;
  /** Its vehicle takes a wheelchair (true) or not (false); undefined: not known. */
  accessible?: boolean;
  /** How full it is: a GTFS-realtime OccupancyStatus name ("FEW_SEATS_AVAILABLE"); undefined: not known. */
  occupancy?: string;
  /** The zone its time is told in (the stop's or the agency's); undefined: the unit's. */
  zone?: string;
}

/**
 * live: the realtime feed is fresh; scheduled: it is stale or absent and the schedule is shown; no-data: nothing to
 * show.
 */
export type BoardState = 'live' | 'scheduled' | 'no-data';

export interface BoardData {
  state: BoardState;
  /** In order of `time`, departures before `now` left out. */
  departures: readonly Departure[];
}

export interface BoardQuery {
  feed: string;
  stops: readonly string[];
  routes?: readonly string[];
  /** Only these GTFS direction_ids and these destinations (headsigns); undefined or empty: all. */
  directions?: readonly number[];
  headsigns?: readonly string[];
  /** Departures before this (ms epoch; a passenger's walk from `now`) are left out; undefined: `now`. */
  notBefore?: number;
  /** Seconds after which realtime data counts as stale. */
  staleAfter: number;
  now: number;
  /** At most this many departures are wanted. */
  limit: number;
}

export interface BoardSource {
  /** The departures for an area now. An unknown feed answers `{ state: 'no-data', departures: [] }`. */
  board(q: BoardQuery): BoardData;
  /** Called when a feed's data changed (a poll brought news): boards redraw. Returns the unsubscribe. */
  onChange(listener: (feed: string) => void): () => void;
}
