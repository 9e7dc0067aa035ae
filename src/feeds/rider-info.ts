// What a board may say of a departure beside its time, for riders who need it: whether its
// vehicle takes a wheelchair (trips.txt wheelchair_accessible) and how full it is (GTFS-realtime
// OccupancyStatus: the stop's departure_occupancy_status, else the vehicle's occupancy_status).
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

/** `accessible` and `occupancy` of a call's departure, set only where the data says. */
export function riderInfo(
  call: ScheduledCall,
  rt: RtData | undefined,
  own: StopRt | undefined,
): Pick<Departure, 'accessible' | 'occupancy'> {
  const out: Pick<Departure, 'accessible' | 'occupancy'> = {};
  if (call.trip.wheelchair !== undefined) out.accessible = call.trip.wheelchair === 1;
  const occupancy = occupancyName(own?.occupancy ?? rt?.occupancy?.get(call.trip.id));
  if (occupancy) out.occupancy = occupancy;
  return out;
}
