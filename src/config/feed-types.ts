// The normalized `feeds` section and the departures areas that draw from it (docs/feeds.md).

/** A departures area of the file: where a feed's data is shown (docs/feeds.md). */
export interface BoardArea {
  display: string;
  layout: string;
  area: string;
  areas: string[];
  feed: string;
  stops: string[];
  routes?: string[];
  /** The area of the same layout that shows the feed's alerts for this board, at `alertPriority`. */
  alertArea?: string;
  alertPriority: number;
  /** Minutes before a departure it is spoken, and the words (`{route}`, `{destination}`, `{platform}`, `{m}`). */
  announceAt?: number;
  announceText: string;
  /** Seconds after which the board's realtime data counts as stale. */
  staleAfter: number;
}

/** docs/configuration.md, Feeds. */
export interface FeedConfig {
  id: string;
  type: 'gtfs-rt' | 'siri';
  url: string;
  /**
   * The GTFS schedule (gtfs-rt only): a zip in the service folder (absolute path, checked at load) or a URL fetched at
   * start and daily.
   */
  static?: { file: string } | { url: string };
  /** Seconds between polls. */
  interval: number;
  /** Seconds the feed's header time may differ from the unit's clock before it is a problem. */
  maxClockSkew: number;
  /** The schedule's zone; undefined: agency.txt's. */
  timezone?: string;
  alertsUrl?: string;
  /** gtfs-rt: a VehiclePositions feed apart from `url`, polled alike, for the vehicles' occupancy. */
  vehiclePositionsUrl?: string;
  /** Sent with every poll (an API key); never logged or shown. */
  headers?: Record<string, string>;
  /** siri: `url` is asked by POSTing a SIRI-SM ServiceRequest for the boards' stops, as `requestorRef`. */
  method?: 'post';
  requestorRef?: string;
  /** The departures areas that name this feed. */
  boards: BoardArea[];
}
