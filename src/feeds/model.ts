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
  /** stop_time_properties.pickup_type NONE: passengers only get off here. */
  noPickup?: true;
  /** stop_time_properties.assigned_stop_id: the stop (platform) the trip now serves instead. */
  assignedStopId?: string;
  /** departure_occupancy_status (an OccupancyStatus number). */
  occupancy?: number;
}

export interface TripRt {
  tripId: string;
  routeId?: string;
  /** YYYYMMDD when the feed gives it: which service day's run this update is for. */
  startDate?: string;
  /** HH:MM:SS when the feed gives it: which run of a frequency-based trip this update is for. */
  startTime?: string;
  /** CANCELED: shown, marked. */
  cancelled: boolean;
  /** DELETED: not shown at all (the reference: as if it had never been scheduled). */
  deleted: boolean;
  /** TripProperties.trip_headsign, for a trip the schedule lacks. */
  headsign?: string;
  /** The update's VehicleDescriptor id: how a VehiclePosition naming no trip is joined to it. */
  vehicleId?: string;
  /** In the feed's order (stop_sequence order, as the reference requires). */
  stops: StopRt[];
}

/** An entity of a feed that could not be read, and why (it was left out; the rest was used). */
export interface SkippedEntity {
  id: string;
  reason: string;
}

export interface RtData {
  /** The feed header's timestamp, ms (0 when absent). */
  timestamp: number;
  /** How many entities could not be read, and the first few of them. */
  skipped: number;
  skippedEntities: SkippedEntity[];
  /** Trip updates by trip_id; more than one when several service days' runs are updated. */
  trips: Map<string, TripRt[]>;
  /** The occupancy of VehiclePositions in the same feed (some producers send them with the trip updates). */
  positions?: Positions;
}

/** A VehiclePosition's occupancy_status, and which run of its trip it is for (as a TripUpdate's). */
export interface VehicleOccupancy {
  startDate?: string;
  startTime?: string;
  status: number;
}

/** The occupancy of the vehicles whose positions say it. */
export interface Positions {
  /** By the trip_id the vehicle serves; more than one when several runs are in the feed. */
  trips: Map<string, VehicleOccupancy[]>;
  /** By VehicleDescriptor id, for a vehicle whose position names no trip. */
  vehicles: Map<string, number>;
}

/** A VehiclePositions feed (feeds.<id>.vehiclePositionsUrl). */
export interface VehicleData extends Positions {
  /** The feed header's timestamp, ms (0 when absent). */
  timestamp: number;
  skipped: number;
  skippedEntities: SkippedEntity[];
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
  /** How full the vehicle is, as a GTFS-realtime OccupancyStatus name (siri-occupancy.ts). */
  occupancy?: string;
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
  /** What is said for it (GTFS-realtime's tts_header_text, else tts_description_text); undefined: `text`. */
  spoken?: string;
  /** Active periods, ms; empty = always while in the feed. `end` undefined = open. */
  periods: Array<{ start?: number; end?: number }>;
  /** informed_entity (SIRI-SX: what it Affects, as selectors): where it is for. */
  selectors: AlertSelector[];
}

/**
 * A GTFS-realtime EntitySelector; `tripId` from its trip descriptor (SIRI-SX: a journey's
 * DatedVehicleJourneyRef). `network`: SIRI-SX's whole network (AllLines), every board of the feed.
 */
export interface AlertSelector {
  agencyId?: string;
  routeId?: string;
  routeType?: number;
  directionId?: number;
  tripId?: string;
  stopId?: string;
  network?: true;
}

/** A feed's alerts, and the entities that could not be read (left out). */
export interface AlertData {
  alerts: FeedAlert[];
  skipped: number;
  skippedEntities: SkippedEntity[];
}
