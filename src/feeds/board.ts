// A board's departures from one feed: the schedule with the realtime data applied while that
// data is fresh, the schedule alone (marked, not live) once it is older than the area's
// `staleAfter`, nothing ("no-data") when there is neither. Cancelled departures stay, marked,
// until their time passes, also once the data that cancelled them is stale; departures before
// now leave.
import type { BoardData, BoardQuery, Departure } from '../config/board-source.js';
import type { RtData, SiriData, StopRt, TripRt, VehicleData } from './model.js';
import { predict, runOf, type Prediction } from './gtfs-rt-apply.js';
import type { Schedule, ScheduledCall } from './schedule.js';
import { wantedBy } from './board-filter.js';
import { addedOccupancy, riderInfo } from './rider-info.js';

/** How far back scheduled calls are looked at: a late train scheduled two hours ago may still come. */
const LOOKBACK_MS = 3 * 3600_000;
const HORIZON_MS = 36 * 3600_000;

export const NO_DATA: BoardData = { state: 'no-data', departures: [] };

export interface GtfsFeedData {
  schedule?: Schedule;
  zone: string;
  rt?: RtData;
  fresh: boolean;
  /** The VehiclePositions feed's data while it is fresh (its occupancy is shown then only). */
  vehicles?: VehicleData;
}

export function gtfsBoard(q: BoardQuery, f: GtfsFeedData): BoardData {
  const wantRoute = routeFilter(q.routes);
  const out: Departure[] = [];
  const live = f.fresh && f.rt !== undefined;
  const sched = f.schedule && q.stops.some((s) => f.schedule!.hasStop(s)) ? f.schedule : undefined;
  const seen = new Set<string>();
  if (sched) {
    const calls = sched.callsBetween(q.stops, f.zone, q.now - LOOKBACK_MS, q.now + HORIZON_MS);
    // An update without start_date is for the run nearest now (the reference: the trip's current instance).
    const nearest = new Map<string, { date: string; off: number }>();
    const runKey = (c: ScheduledCall) => (c.start === undefined ? c.trip.id : `${c.trip.id}@${c.start}`);
    for (const c of calls) {
      const off = Math.abs(c.time - q.now);
      const n = nearest.get(runKey(c));
      if (!n || off < n.off) nearest.set(runKey(c), { date: c.date, off });
    }
    for (const call of calls) {
      if (!wantRoute(call.trip.route, call.trip.routeId)) continue;
      const current = nearest.get(runKey(call))?.date;
      const run = f.rt ? runOf(f.rt.trips.get(call.trip.id), call, current) : undefined;
      seen.add(call.trip.id);
      if (run?.deleted) continue;
      const p = live ? predict(call, run) : staleOf(call, run);
      if (p.time < q.now) continue;
      out.push({
        key: `${call.trip.id}/${call.stop.seq}/${call.date}${call.start === undefined ? '' : `/${call.start}`}`,
        route: call.trip.route,
        destination: call.stop.headsign ?? call.trip.headsign,
        platform: sched.platformOf(p.stopId ?? call.stop.stopId),
        time: p.time,
        live: p.live,
        cancelled: p.cancelled,
        zone: sched.zoneOf(call.stop.stopId) ?? f.zone,
        ...(p.stopId !== undefined && p.stopId !== call.stop.stopId ? { platformChanged: true } : {}),
        ...(call.trip.direction !== undefined ? { direction: call.trip.direction } : {}),
        ...riderInfo(call, {
          ...(live ? { rt: f.rt, own: p.own, run } : {}),
          stop: sched.wheelchairAt(p.stopId ?? call.stop.stopId),
          vehicles: f.vehicles,
          current,
        }),
      });
    }
  }
  if (live) {
    // Trips the schedule does not know (added trips, or a feed without a schedule): only an absolute time at the stop
    // can place them.
    const stops = new Set(q.stops);
    const atBoard = (id: string) => stops.has(id) || (f.schedule?.countsFor(id).some((b) => stops.has(b)) ?? false);
    for (const runs of f.rt!.trips.values()) {
      for (const t of runs) {
        // A trip the schedule knows is placed by its scheduled calls (a call it cannot be boarded at is none).
        if (
          t.deleted ||
          seen.has(t.tripId) ||
          f.schedule?.trips.has(t.tripId) ||
          !wantRoute(t.routeId ?? '', t.routeId ?? '')
        )
          continue;
        t.stops.forEach((s, i) => {
          if (
            s.stopId === undefined ||
            s.time === undefined ||
            s.time < q.now ||
            !addedDepartsAt(t, i) ||
            !atBoard(s.stopId)
          )
            return;
          out.push({
            key: `${t.tripId}/${s.stopSequence ?? s.stopId}/${t.startDate ?? ''}`,
            route: t.routeId ?? '',
            destination: destinationOf(t, f.schedule),
            platform: f.schedule?.platformOf(s.stopId) ?? '',
            time: s.time,
            live: true,
            cancelled: t.cancelled || s.skipped,
            zone: f.schedule?.zoneOf(s.stopId) ?? f.zone,
            ...addedRiderInfo(t, s, f),
          });
        });
      }
    }
  }
  if (!live && !sched) return NO_DATA;
  return { state: live ? 'live' : 'scheduled', departures: firstOf(out.filter(wantedBy(q)), q.limit) };
}

/**
 * A call once the realtime data is stale: its scheduled time, not live; but what the last good
 * data cancelled (the trip, or this stop skipped) stays cancelled until newer data says
 * otherwise or its time passes: a train that will not stop must not come back as due.
 */
function staleOf(call: ScheduledCall, run: TripRt | undefined): Prediction {
  return { time: call.time, live: false, cancelled: run !== undefined && predict(call, run).cancelled };
}

/**
 * departsAt for a trip the schedule lacks, by what the feed gives: not at the last of the stops
 * it names (where it ends: an added trip's update gives all its stops ahead), nor where it only
 * sets down (stop_time_properties.pickup_type NONE). A single stop's update says nothing of
 * where the trip ends.
 */
function addedDepartsAt(t: TripRt, i: number): boolean {
  return !t.stops[i].noPickup && (i !== t.stops.length - 1 || t.stops.length === 1);
}

/** A trip the schedule lacks: not accessible from a stop that says so, and its occupancy. */
function addedRiderInfo(t: TripRt, s: StopRt, f: GtfsFeedData): Pick<Departure, 'accessible' | 'occupancy'> {
  const occupancy = addedOccupancy(t, s, f.rt!, f.vehicles);
  return {
    ...(f.schedule?.wheelchairAt(s.stopId!) === 2 ? { accessible: false } : {}),
    ...(occupancy ? { occupancy } : {}),
  };
}

/** A trip the schedule lacks goes where the feed says (its headsign), else to the last stop it names. */
function destinationOf(t: TripRt, schedule: Schedule | undefined): string {
  if (t.headsign) return t.headsign;
  for (let i = t.stops.length - 1; i >= 0; i--) {
    const id = t.stops[i].stopId;
    if (id !== undefined) return schedule?.stopName(id) ?? '';
  }
  return '';
}

/** SIRI: expected times while fresh; once stale, the aimed (timetabled) times of the last data, not live. */
export function siriBoard(q: BoardQuery, data: SiriData | undefined, fresh: boolean, zone?: string): BoardData {
  if (!data) return NO_DATA;
  const wantRoute = routeFilter(q.routes);
  const stops = new Set(q.stops);
  const out: Departure[] = [];
  for (const v of data.visits) {
    if (!(stops.has(v.stop) || v.alias?.some((s) => stops.has(s))) || !wantRoute(v.route, v.line)) continue;
    const time = fresh ? (v.expected ?? v.aimed) : v.aimed;
    if (time === undefined || time < q.now) continue;
    out.push({
      key: v.key,
      route: v.route,
      destination: v.destination,
      platform: v.platform,
      time,
      live: fresh && v.expected !== undefined,
      cancelled: v.cancelled,
      ...(v.platformChanged ? { platformChanged: true } : {}),
      ...(zone ? { zone } : {}),
      // Like a GTFS-realtime feed's, the vehicle's occupancy is said while the data is fresh.
      ...(fresh && v.occupancy ? { occupancy: v.occupancy } : {}),
    });
  }
  if (!fresh && !out.length) return NO_DATA;
  return { state: fresh ? 'live' : 'scheduled', departures: firstOf(out.filter(wantedBy(q)), q.limit) };
}

function routeFilter(routes: readonly string[] | undefined): (name: string, id: string) => boolean {
  if (!routes?.length) return () => true;
  const set = new Set(routes);
  return (name, id) => set.has(name) || set.has(id);
}

function firstOf(list: Departure[], limit: number): Departure[] {
  const byKey = new Map<string, Departure>();
  for (const d of list) if (!byKey.has(d.key)) byKey.set(d.key, d);
  return [...byKey.values()].sort((a, b) => a.time - b.time || a.key.localeCompare(b.key)).slice(0, Math.max(0, limit));
}
