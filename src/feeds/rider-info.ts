// What a board may say of a departure beside its time, for riders who need it: whether a
// wheelchair user can board it there (trips.txt wheelchair_accessible and the stop's
// wheelchair_boarding: a vehicle that takes a wheelchair at a stop without step-free access is not
// accessible there) and how full it is (GTFS-realtime OccupancyStatus: the stop's
// departure_occupancy_status, else the occupancy_status of the vehicle's position in the
// VehiclePositions feed, else of one in the TripUpdates feed itself: by its trip's run, else by
// the vehicle id the trip update gives).
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { Departure } from '../config/board-source.js';
import { runOf } from './gtfs-rt-apply.js';
import type { Positions, RtData, StopRt, TripRt, VehicleData, VehicleOccupancy } from './model.js';
import type { ScheduledCall } from './schedule.js';

const STATUS = GtfsRealtimeBindings.transit_realtime.VehiclePosition.OccupancyStatus;

/** The enum's name of an OccupancyStatus number ("FEW_SEATS_AVAILABLE"); undefined when unknown. */
export function occupancyName(n: number | undefined): string | undefined {
  return n === undefined ? undefined : STATUS[n];
}

/** Positions of one trip_id for different runs kept at most. */
const RUNS_PER_TRIP = 4;

/**
 * A VehiclePosition's occupancy_status kept: by its trip's run (trip_id with start_date and
 * start_time) when it names a trip `wanted`, else by its vehicle id; at most `max` of each.
 */
export function keepPosition(
  p: Positions,
  v: GtfsRealtimeBindings.transit_realtime.IVehiclePosition,
  wanted: (tripId: string) => boolean,
  max: number,
): void {
  // A decoded message answers 0 (EMPTY) for a status that was not sent: only one it carries counts.
  const status = Object.prototype.hasOwnProperty.call(v, 'occupancyStatus') ? v.occupancyStatus : undefined;
  if (status === null || status === undefined) return;
  const trip = v.trip?.tripId;
  if (trip) {
    if (!wanted(trip)) return;
    const run = { startDate: v.trip?.startDate || undefined, startTime: v.trip?.startTime || undefined, status };
    const list = p.trips.get(trip);
    if (list) {
      if (list.length < RUNS_PER_TRIP) list.push(run);
    } else if (p.trips.size < max) p.trips.set(trip, [run]);
    return;
  }
  const vehicle = v.vehicle?.id;
  if (vehicle && (p.vehicles.size < max || p.vehicles.has(vehicle))) p.vehicles.set(vehicle.slice(0, 255), status);
}

/**
 * Whether a wheelchair user can board: no where either the trip or the stop says not (2), yes where
 * the trip says so and the stop does not deny it; undefined when the trip does not say.
 */
export function accessibleAt(trip: 1 | 2 | undefined, stop: 1 | 2 | undefined): boolean | undefined {
  if (trip === 2 || stop === 2) return false;
  return trip === 1 ? true : undefined;
}

/** Where a departure's rider information comes from, each given only while it may be shown. */
export interface RiderSources {
  /** The TripUpdates feed's data, while fresh. */
  rt?: RtData;
  /** The call's own stop update. */
  own?: StopRt;
  /** The trip update of this call's run (its vehicle id). */
  run?: TripRt;
  /** wheelchair_boarding of the stop it departs from. */
  stop?: 1 | 2;
  /** The VehiclePositions feed's data, while fresh. */
  vehicles?: VehicleData;
  /** The service date of the trip's run nearest now: a position without start_date is for it. */
  current?: string;
}

/** `accessible` and `occupancy` of a call's departure, set only where the data says. */
export function riderInfo(call: ScheduledCall, src: RiderSources): Pick<Departure, 'accessible' | 'occupancy'> {
  const out: Pick<Departure, 'accessible' | 'occupancy'> = {};
  const accessible = accessibleAt(call.trip.wheelchair, src.stop);
  if (accessible !== undefined) out.accessible = accessible;
  const at = (p: Positions | undefined) =>
    positionOf(p, call.trip.id, (runs) => runOf(runs, call, src.current), src.run?.vehicleId);
  const occupancy = occupancyName(src.own?.occupancy ?? at(src.vehicles) ?? at(src.rt?.positions));
  if (occupancy) out.occupancy = occupancy;
  return out;
}

/** The occupancy_status positions give for a trip's run (`pick`), else for the trip update's vehicle. */
function positionOf(
  p: Positions | undefined,
  trip: string,
  pick: (runs: VehicleOccupancy[] | undefined) => VehicleOccupancy | undefined,
  vehicleId: string | undefined,
): number | undefined {
  if (!p) return undefined;
  return pick(p.trips.get(trip))?.status ?? (vehicleId === undefined ? undefined : p.vehicles.get(vehicleId));
}

/** The occupancy name of a call of a trip the schedule lacks: its stop's, else its vehicle's. */
export function addedOccupancy(
  t: TripRt,
  stop: StopRt,
  rt: RtData,
  vehicles: VehicleData | undefined,
): string | undefined {
  const pick = (runs: VehicleOccupancy[] | undefined) =>
    runs?.find((r) => r.startDate === undefined || t.startDate === undefined || r.startDate === t.startDate);
  const at = (p: Positions | undefined) => positionOf(p, t.tripId, pick, t.vehicleId);
  return occupancyName(stop.occupancy ?? at(vehicles) ?? at(rt.positions));
}
