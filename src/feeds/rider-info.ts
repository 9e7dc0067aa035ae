// What a board may say of a departure beside its time, for riders who need it: whether a
// wheelchair user can board it there (trips.txt wheelchair_accessible and the stop's
// wheelchair_boarding: a vehicle that takes a wheelchair at a stop without step-free access is not
// accessible there) and how full it is (GTFS-realtime OccupancyStatus: the stop's
// departure_occupancy_status, else the vehicle's occupancy_status).
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { Departure } from '../config/board-source.js';
import type { RtData, StopRt } from './model.js';
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

/**
 * `accessible` and `occupancy` of a call's departure, set only where the data says; `stop`: the
 * wheelchair_boarding of the stop it departs from.
 */
export function riderInfo(
  call: ScheduledCall,
  rt: RtData | undefined,
  own: StopRt | undefined,
  stop?: 1 | 2,
): Pick<Departure, 'accessible' | 'occupancy'> {
  const out: Pick<Departure, 'accessible' | 'occupancy'> = {};
  const accessible = accessibleAt(call.trip.wheelchair, stop);
  if (accessible !== undefined) out.accessible = accessible;
  const occupancy = occupancyName(own?.occupancy ?? rt?.occupancy?.get(call.trip.id));
  if (occupancy) out.occupancy = occupancy;
  return out;
}
