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
  /** The departure leaves from another platform than planned (`platform` is the new one). */
  platformChanged?: boolean;
  /** The zone its time is told in (the stop's or the agency's); undefined: the unit's. */
  zone?: string;
}

/** live: the realtime feed is fresh; scheduled: it is stale or absent and the schedule is shown; no-data: nothing to show. */
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
