// A GTFS-realtime VehiclePositions feed served apart from the TripUpdates (an agency's
// `/vehiclepositions` beside its `/tripupdates`), read for what the boards show of it: each
// vehicle's occupancy_status, by the trip it serves (trip_id, with start_date and start_time
// telling runs apart as in a TripUpdate) or, for a position naming no trip, by its vehicle id,
// which a TripUpdate's VehicleDescriptor joins to a trip. Decoded one FeedEntity at a time
// (proto-walk.ts); an entity that cannot be read is skipped and counted, the rest used.
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { VehicleData } from './model.js';
import { given, MAX_TRIP_UPDATES, seconds, walkFeed, type Num } from './gtfs-rt.js';
import { keepPosition } from './rider-info.js';

/** `wanted`: the trips the boards may show (the schedule's kept trips and those the trip updates name). */
export async function decodeVehiclePositions(
  buf: Uint8Array,
  wanted: ReadonlySet<string>,
  sliceMs = 4,
): Promise<VehicleData> {
  const data: VehicleData = { timestamp: 0, trips: new Map(), vehicles: new Map(), skipped: 0, skippedEntities: [] };
  const keep = (e: GtfsRealtimeBindings.transit_realtime.FeedEntity) => {
    const v = e.vehicle;
    if (e.isDeleted || !v) return;
    // A position the producer timed in milliseconds is as wrong as a trip update's.
    seconds(given(v, 'timestamp') as Num, 'a vehicle timestamp');
    keepPosition(data, v, (trip) => wanted.has(trip), MAX_TRIP_UPDATES);
  };
  await walkFeed(buf, data, keep, sliceMs);
  return data;
}
