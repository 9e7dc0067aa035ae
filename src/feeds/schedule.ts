// The part of a GTFS schedule the boards keep (gtfs-static.ts reads it), and the scheduled
// departures it gives for a stop on the service days around now. A GTFS time counts from its
// service day's "noon minus 12 h" in the schedule's zone and may pass 24:00: a trip at 25:10
// belongs to the previous service day, so yesterday's services are looked at too. A trip of
// frequencies.txt runs once per headway from each period's start_time to its end_time, its
// stop times a pattern counted from its first.
import { directionKey, emptyScope, type AlertScope } from './alert-scope.js';
import { serviceDate, serviceDayBase, weekdayOf } from './zone-time.js';

export interface StopTime {
  seq: number;
  stopId: string;
  sec: number;
  headsign?: string;
  /** pickup_type 1: passengers only get off here. Set only then: the other stop times (nearly all) carry no field. */
  noPickup?: true;
}

/**
 * A frequencies.txt period of a trip, in seconds of the service day; the runs start at start + k x headway, before end.
 */
export interface Frequency {
  start: number;
  end: number;
  headway: number;
  exact: boolean;
}

export interface TripInfo {
  id: string;
  routeId: string;
  /** route_short_name, else route_long_name, else route_id. */
  route: string;
  serviceId: string;
  /** trip_headsign, else the name of the stop it ends at. */
  headsign: string;
  /** All its stop times, in stop_sequence order. */
  stops: StopTime[];
  /** frequencies.txt's periods when it runs by headway; its stop times then give only the pattern. */
  frequencies?: Frequency[];
  /** trips.txt direction_id, when given (trip-traits.ts). */
  direction?: number;
  /** trips.txt wheelchair_accessible 1 (accessible) or 2 (not), when given. */
  wheelchair?: 1 | 2;
}

/** What an alert may name a route by besides its id (routes.txt). */
export interface RouteInfo {
  agencyId: string;
  type: number;
}

export interface ServiceDays {
  weekly: Map<string, { week: boolean[]; start: string; end: string }>;
  /** calendar_dates.txt: date -> true added, false removed. */
  exceptions: Map<string, Map<string, boolean>>;
}

/** A scheduled call of a trip at a stop on one service day. */
export interface ScheduledCall {
  trip: TripInfo;
  stop: StopTime;
  /** YYYYMMDD. */
  date: string;
  /** Where the day's GTFS times count from, ms. */
  base: number;
  /** The scheduled departure, ms. */
  time: number;
  /** A frequency-based run's start_time (seconds of the service day); undefined for a trip of stop_times alone. */
  start?: number;
  /** Seconds added to the trip's stop times for this run (0 but for frequency-based runs). */
  shift: number;
}

/** When this call's run is scheduled at `stop`, another of its trip's stop times, ms. */
export function scheduledAt(call: ScheduledCall, stop: StopTime): number {
  return call.base + (stop.sec + call.shift) * 1000;
}

/** "HH:MM:SS" (hours may pass 24) as seconds from the service day's start; NaN when empty or malformed. */
export function gtfsSeconds(s: string): number {
  const m = /^(\d{1,3}):(\d\d):(\d\d)$/.exec(s);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
}

/** What a schedule keeps, as plain data: read in a thread and handed over as it is. */
export interface ScheduleParts {
  trips: Map<string, TripInfo>;
  /** stop_id -> the configured stops it counts for: itself when named, its parent station when named. */
  boardsOf: Map<string, string[]>;
  days: ServiceDays;
  agencyZone?: string;
  platforms: Map<string, string>;
  /** stop_name of every stop the kept trips call at (a destination for a trip the schedule lacks). */
  names: Map<string, string>;
  /** stop_id -> its stop_timezone (or its station's), for the kept stops that give one. */
  zones: Map<string, string>;
  /** stop_id -> its wheelchair_boarding "1" or "2" (or its station's), for the kept stops that give one. */
  wheelchair: Map<string, string>;
  /** The kept trips' routes: agency_id (agency.txt's when routes.txt leaves it out) and route_type. */
  routes: Map<string, RouteInfo>;
  /** A configured stop -> its parent_station, for those that have one. */
  stations: Map<string, string>;
}

/**
 * Whether a passenger can board `trip` at its call `stop`: not at the stop it ends at, nor where
 * it only sets down (pickup_type 1). Scheduled calls and realtime updates to them both go by it.
 */
export function departsAt(trip: TripInfo, stop: StopTime): boolean {
  return !stop.noPickup && stop !== trip.stops[trip.stops.length - 1];
}

export class Schedule {
  readonly trips: Map<string, TripInfo>;
  readonly agencyZone: string | undefined;
  private readonly days: ServiceDays;
  private readonly platforms: Map<string, string>;
  private readonly names: Map<string, string>;
  private readonly zones: Map<string, string>;
  private readonly wheelchair: Map<string, string>;
  private readonly known: ReadonlySet<string>;
  private readonly boardsOf: Map<string, string[]>;
  private readonly routes: Map<string, RouteInfo>;
  private readonly stations: Map<string, string>;
  /** Configured stop -> the departures of kept trips there (at it or at one of its platforms). */
  private readonly calls = new Map<string, Array<{ trip: TripInfo; stop: StopTime }>>();

  constructor(p: ScheduleParts) {
    this.trips = p.trips;
    this.agencyZone = p.agencyZone;
    this.days = p.days;
    this.platforms = p.platforms;
    this.names = p.names;
    this.zones = p.zones;
    this.wheelchair = p.wheelchair;
    this.known = new Set([...p.boardsOf.values()].flat());
    this.boardsOf = p.boardsOf;
    this.routes = p.routes;
    this.stations = p.stations;
    for (const trip of p.trips.values()) {
      for (const stop of trip.stops) {
        const boards = p.boardsOf.get(stop.stopId);
        if (boards === undefined || !Number.isFinite(stop.sec) || !departsAt(trip, stop)) continue;
        for (const board of boards) {
          let list = this.calls.get(board);
          if (!list) {
            list = [];
            this.calls.set(board, list);
          }
          list.push({ trip, stop });
        }
      }
    }
  }

  /** How many stop times are kept (for /status). */
  get size(): number {
    let n = 0;
    for (const t of this.trips.values()) n += t.stops.length;
    return n;
  }

  /** Whether a configured stop has departures. */
  hasStop(stop: string): boolean {
    return this.calls.has(stop);
  }

  /** The configured stops a stop_id counts for (itself, its station); none for a stop no board names. */
  countsFor(stopId: string): readonly string[] {
    return this.boardsOf.get(stopId) ?? [];
  }

  /** Every stop_id that counts for a configured stop: the boards' stops and their stations' platforms. */
  counted(): Iterable<string> {
    return this.boardsOf.keys();
  }

  /**
   * What an alert can name a board by (alert-scope.ts): the board's stops with their stations'
   * platforms and their platforms' stations, and the agencies, routes, route types, directions
   * and trips of the departures there (of `routes` only, when the board has that filter).
   */
  scopeOf(stops: readonly string[], routes: readonly string[] | undefined): AlertScope {
    const scope = emptyScope();
    const want = routes?.length ? new Set(routes) : undefined;
    for (const s of stops) {
      scope.stops.add(s);
      const station = this.stations.get(s);
      if (station !== undefined) scope.stops.add(station);
    }
    for (const [id, boards] of this.boardsOf) if (boards.some((b) => stops.includes(b))) scope.stops.add(id);
    for (const s of stops) {
      for (const { trip } of this.calls.get(s) ?? []) {
        if (want && !want.has(trip.route) && !want.has(trip.routeId)) continue;
        scope.routes.add(trip.routeId).add(trip.route);
        scope.trips.add(trip.id);
        const info = this.routes.get(trip.routeId);
        if (info) {
          scope.agencies.add(info.agencyId);
          scope.routeTypes.add(info.type);
        }
        if (trip.direction !== undefined)
          scope.directions.add(directionKey(trip.routeId, trip.direction)).add(directionKey(undefined, trip.direction));
      }
    }
    return scope;
  }

  /** Whether a configured stop is in the schedule's stops.txt. */
  knows(stop: string): boolean {
    return this.known.has(stop);
  }

  /** The routes (names and ids) of the trips calling at `stops`. */
  routesAt(stops: readonly string[]): string[] {
    const out = new Set<string>();
    for (const s of stops)
      for (const c of this.calls.get(s) ?? []) {
        out.add(c.trip.route);
        out.add(c.trip.routeId);
      }
    return [...out];
  }

  platformOf(stopId: string): string {
    return this.platforms.get(stopId) ?? '';
  }

  /** stop_name of a stop the kept trips call at; '' for any other. */
  stopName(stopId: string): string {
    return this.names.get(stopId) ?? '';
  }

  /** The stop's own zone (stop_timezone, its station's), else undefined: the agency's. */
  zoneOf(stopId: string): string | undefined {
    return this.zones.get(stopId);
  }

  /** The stop's wheelchair_boarding (its station's when it gives none): 1 accessible, 2 not, undefined not known. */
  wheelchairAt(stopId: string): 1 | 2 | undefined {
    const v = this.wheelchair.get(stopId);
    return v === '1' ? 1 : v === '2' ? 2 : undefined;
  }

  /**
   * Whether a service runs on a YYYYMMDD date: calendar_dates.txt first, then calendar.txt's weekdays within its range.
   */
  runs(serviceId: string, date: string): boolean {
    const exception = this.days.exceptions.get(serviceId)?.get(date);
    if (exception !== undefined) return exception;
    const w = this.days.weekly.get(serviceId);
    return !!w && date >= w.start && date <= w.end && w.week[weekdayOf(date)];
  }

  /** Scheduled calls at `stops` departing within [from, to), from the service days that can reach them. */
  callsBetween(stops: readonly string[], zone: string, from: number, to: number): ScheduledCall[] {
    const out: ScheduledCall[] = [];
    // A GTFS day may run past 48:00 in rare feeds; two days back covers what a board shows.
    const last = serviceDate(zone, to);
    const dates: string[] = [];
    for (let d = -2; d < 8; d++) {
      const date = serviceDate(zone, from, d);
      if (date > last) break;
      dates.push(date);
    }
    for (const date of dates) {
      const base = serviceDayBase(zone, date);
      if (base > to) continue;
      for (const stop of stops) {
        for (const c of this.calls.get(stop) ?? []) {
          if (!this.runs(c.trip.serviceId, date)) continue;
          if (c.trip.frequencies) {
            runsBetween(c, date, base, from, to, out);
            continue;
          }
          const time = base + c.stop.sec * 1000;
          if (time >= from && time < to) out.push({ trip: c.trip, stop: c.stop, date, base, time, shift: 0 });
        }
      }
    }
    return out.sort((a, b) => a.time - b.time);
  }
}

/** The runs of a frequency-based trip's call on one service day within [from, to), into `out`. */
function runsBetween(
  c: { trip: TripInfo; stop: StopTime },
  date: string,
  base: number,
  from: number,
  to: number,
  out: ScheduledCall[],
): void {
  const first = c.trip.stops[0].sec;
  const offset = c.stop.sec - first;
  if (!Number.isFinite(offset)) return;
  for (const f of c.trip.frequencies ?? []) {
    if (!(f.headway > 0)) continue;
    // The first run at or after `from`, then each headway until the period ends or `to` is reached.
    const k = Math.max(0, Math.ceil(((from - base) / 1000 - offset - f.start) / f.headway));
    for (let start = f.start + k * f.headway; start < f.end; start += f.headway) {
      const time = base + (start + offset) * 1000;
      if (time >= to) break;
      out.push({ trip: c.trip, stop: c.stop, date, base, time, start, shift: start - first });
    }
  }
}
