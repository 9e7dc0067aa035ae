// What the feeds keep between polls, in the small shape the boards read: never the decoded
// feed message itself (a national feed's TripUpdates decode to hundreds of MB of objects).

/** One StopTimeUpdate as the board applies it. Times are ms since the epoch, delays seconds. */
export interface StopRt {
  stopSequence?: number;
  stopId?: string;
  /** Departure (else arrival) absolute time, ms. */
  time?: number;
  /** Departure (else arrival) delay, seconds. */
  delay?: number;
  skipped: boolean;
  noData: boolean;
}

export interface TripRt {
  tripId: string;
  routeId?: string;
  /** YYYYMMDD when the feed gives it: which service day's run this update is for. */
  startDate?: string;
  /** HH:MM:SS when the feed gives it: which run of a frequency-based trip this update is for. */
  startTime?: string;
  cancelled: boolean;
  /** In the feed's order (stop_sequence order, as the reference requires). */
  stops: StopRt[];
}

export interface RtData {
  /** The feed header's timestamp, ms (0 when absent). */
  timestamp: number;
  /** Trip updates by trip_id; more than one when several service days' runs are updated. */
  trips: Map<string, TripRt[]>;
}

/** A departure as SIRI gives it (SIRI-SM MonitoredStopVisit or SIRI-ET EstimatedCall). */
export interface SiriVisit {
  key: string;
  /** The visit's MonitoringRef (else its delivery's), or the call's StopPointRef. */
  stop: string;
  /** Other ids the call's stop goes by (its StopPointRef, its expected quay): a board naming one shows it. */
  alias?: string[];
  /** PublishedLineName, else LineRef. */
  route: string;
  /** LineRef ('' when absent): what routes filters and situations may name. */
  line: string;
  /** The journey's DatedVehicleJourneyRef ('' when absent): what a situation for one journey names. */
  journey: string;
  destination: string;
  platform: string;
  /** The call moved to another quay than the planned one. */
  platformChanged?: true;
  /** Aimed (timetabled) departure, ms. */
  aimed?: number;
  /** Expected departure, ms: a live prediction. */
  expected?: number;
  cancelled: boolean;
}

export interface SiriData {
  timestamp: number;
  visits: SiriVisit[];
  /** Times that could not be read (one without an offset and no zone, a malformed one), and the first of them. */
  unreadTimes?: { count: number; example: string };
}

/** A feed alert (GTFS-realtime Alert or SIRI-SX PtSituationElement) as the board's display shows it. */
export interface FeedAlert {
  id: string;
  text: string;
  /** Active periods, ms; empty = always while in the feed. `end` undefined = open. */
  periods: Array<{ start?: number; end?: number }>;
  stops: string[];
  routes: string[];
  /** SIRI-SX: the journeys it affects (DatedVehicleJourneyRef), shown where they depart. */
  journeys?: string[];
  /** SIRI-SX: the whole network (AllLines). */
  network?: true;
}
