// What a board may say of a departure beside its time, for riders who need it: whether a
// wheelchair user can board it there (trips.txt wheelchair_accessible and the stop's
// wheelchair_boarding: a vehicle that takes a wheelchair at a stop without step-free access is not
// accessible there) and how full it is (GTFS-realtime OccupancyStatus: the stop's
// departure_occupancy_status, else the occupancy_status of the vehicle's position in the
// VehiclePositions feed (by its trip's run, else by the vehicle id the trip update gives), else
// of a VehiclePosition in the TripUpdates feed itself).
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { Departure } from '../config/board-source.js';
import { runOf } from './gtfs-rt-apply.js';
import type { RtData, StopRt, TripRt, VehicleData } from './model.js';
import type { ScheduledCall } from './schedule.js';

const STATUS = GtfsRealtimeBindings.transit_realtime.VehiclePosition.OccupancyStatus;

/** The enum's name of an OccupancyStatus number ("FEW_SEATS_AVAILABLE"); undefined when unknown. */
export function occupancyName(n: number | undefined): string | undefined {
  return n === undefined ? undefined : STATUS[n];
}

/** Trip ids -> the occupancy_status of their VehiclePosition, kept by the decoder beside the trip updates. */
export function keepVehicle(
  data: RtData,
  v: GtfsRealtimeBindings.transit_realtime.IVehiclePosition,
  wanted: (tripId: string) => boolean,
  max: number,
): void {
  const trip = v.trip?.tripId;
  if (!trip || !wanted(trip) || v.occupancyStatus === null || v.occupancyStatus === undefined) return;
  data.occupancy ??= new Map();
  if (data.occupancy.size < max || data.occupancy.has(trip)) data.occupancy.set(trip, v.occupancyStatus);
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
  const occupancy = occupancyName(
    src.own?.occupancy ?? vehicleOccupancy(call, src) ?? src.rt?.occupancy?.get(call.trip.id),
  );
  if (occupancy) out.occupancy = occupancy;
  return out;
}

/** The occupancy_status the VehiclePositions feed gives for the call's run, else for its trip update's vehicle. */
function vehicleOccupancy(call: ScheduledCall, src: RiderSources): number | undefined {
  const v = src.vehicles;
  if (!v) return undefined;
  const byTrip = runOf(v.trips.get(call.trip.id), call, src.current)?.status;
  return byTrip ?? (src.run?.vehicleId === undefined ? undefined : v.vehicles.get(src.run.vehicleId));
}

/** The occupancy name of a call of a trip the schedule lacks: its stop's, else its vehicle's. */
export function addedOccupancy(
  t: TripRt,
  stop: StopRt,
  rt: RtData,
  vehicles: VehicleData | undefined,
): string | undefined {
  const byTrip = vehicles?.trips.get(t.tripId)?.find((r) => r.startDate === undefined || r.startDate === t.startDate);
  const byVehicle = t.vehicleId === undefined ? undefined : vehicles?.vehicles.get(t.vehicleId);
  return occupancyName(stop.occupancy ?? byTrip?.status ?? byVehicle ?? rt.occupancy?.get(t.tripId));
}
