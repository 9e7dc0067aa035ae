// SIRI's occupancy of a call or journey, as the GTFS-realtime OccupancyStatus name the boards'
// `occupancyTexts` are keyed by. SIRI 2.0 OccupancyEnumeration: full, seatsAvailable,
// standingAvailable; SIRI 2.1 adds unknown, empty, manySeatsAvailable, fewSeatsAvailable,
// standingRoomOnly, crushedStandingRoomOnly, notAcceptingPassengers. Read from, first found:
// the call's Occupancy (Entur's profile), its ExpectedDepartureOccupancy/OccupancyLevel (SIRI
// 2.1), the journey's Occupancy. Producers differ in case ("FULL", "seatsAvailable").
import { isNode, list, text, type Node } from './siri-values.js';

const NAMES: Record<string, string> = {
  empty: 'EMPTY',
  manyseatsavailable: 'MANY_SEATS_AVAILABLE',
  // SIRI 2.0's only "seats" value: seats are to be had, which GTFS-realtime calls many.
  seatsavailable: 'MANY_SEATS_AVAILABLE',
  fewseatsavailable: 'FEW_SEATS_AVAILABLE',
  standingavailable: 'STANDING_ROOM_ONLY',
  standingroomonly: 'STANDING_ROOM_ONLY',
  crushedstandingroomonly: 'CRUSHED_STANDING_ROOM_ONLY',
  full: 'FULL',
  notacceptingpassengers: 'NOT_ACCEPTING_PASSENGERS',
};

const nameOf = (v: unknown): string | undefined =>
  NAMES[
    text(v)
      .toLowerCase()
      .replace(/[^a-z]/g, '')
  ];

/** The OccupancyStatus name of a call of journey `j`; undefined when neither says, or says unknown. */
export function siriOccupancy(j: Node, call: Node): string | undefined {
  const expected = list(call.ExpectedDepartureOccupancy).find(isNode);
  return nameOf(call.Occupancy) ?? (expected ? nameOf(expected.OccupancyLevel) : undefined) ?? nameOf(j.Occupancy);
}
