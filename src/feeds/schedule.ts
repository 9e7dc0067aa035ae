// The part of a GTFS schedule the boards keep (gtfs-static.ts reads it), and the scheduled
// departures it gives for a stop on the service days around now. A GTFS time counts from its
// service day's "noon minus 12 h" in the schedule's zone and may pass 24:00: a trip at 25:10
// belongs to the previous service day, so yesterday's services are looked at too.
import { serviceDate, serviceDayBase, weekdayOf } from './zone-time.js';

export interface StopTime { seq: number; stopId: string; sec: number; headsign?: string }

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
}

/** What a schedule keeps, as plain data: read in a thread and handed over as it is. */
export interface ScheduleParts {
  trips: Map<string, TripInfo>;
  /** stop_id -> the configured stop it is (itself, or its parent station). */
  parentOf: Map<string, string>;
  days: ServiceDays;
  agencyZone?: string;
  platforms: Map<string, string>;
  /** stop_name of every stop the kept trips call at (a destination for a trip the schedule lacks). */
  names: Map<string, string>;
}

export class Schedule {
  readonly trips: Map<string, TripInfo>;
  readonly agencyZone: string | undefined;
  private readonly days: ServiceDays;
  private readonly platforms: Map<string, string>;
  private readonly names: Map<string, string>;
  /** Configured stop -> the calls of kept trips there (at it or at one of its platforms). */
  private readonly calls = new Map<string, Array<{ trip: TripInfo; stop: StopTime }>>();

  constructor(p: ScheduleParts) {
    this.trips = p.trips;
    this.agencyZone = p.agencyZone;
    this.days = p.days;
    this.platforms = p.platforms;
    this.names = p.names;
    for (const trip of p.trips.values()) {
      for (const stop of trip.stops) {
        const board = p.parentOf.get(stop.stopId);
        if (board === undefined || !Number.isFinite(stop.sec)) continue;
        let list = this.calls.get(board);
        if (!list) { list = []; this.calls.set(board, list); }
        list.push({ trip, stop });
      }
    }
  }

  /** How many stop times are kept (for /status). */
  get size(): number {
    let n = 0;
    for (const t of this.trips.values()) n += t.stops.length;
    return n;
  }

  hasStop(stop: string): boolean { return this.calls.has(stop); }

  /** The routes (names and ids) of the trips calling at `stops`. */
  routesAt(stops: readonly string[]): string[] {
    const out = new Set<string>();
    for (const s of stops) for (const c of this.calls.get(s) ?? []) { out.add(c.trip.route); out.add(c.trip.routeId); }
    return [...out];
  }

  platformOf(stopId: string): string { return this.platforms.get(stopId) ?? ''; }

  /** stop_name of a stop the kept trips call at; '' for any other. */
  stopName(stopId: string): string { return this.names.get(stopId) ?? ''; }

  /** Whether a service runs on a YYYYMMDD date: calendar_dates.txt first, then calendar.txt's weekdays within its range. */
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
          const time = base + c.stop.sec * 1000;
          if (time < from || time >= to || !this.runs(c.trip.serviceId, date)) continue;
          out.push({ trip: c.trip, stop: c.stop, date, base, time });
        }
      }
    }
    return out.sort((a, b) => a.time - b.time);
  }
}
