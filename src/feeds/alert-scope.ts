// Which alerts reach a board: GTFS-realtime's informed_entity (https://gtfs.org/realtime/reference,
// EntitySelector) is a selector whose given fields must all hold: agency_id, route_id,
// route_type, direction_id (with its route_id), trip and stop_id. A board answers to its stops
// (with a station's platforms and a platform's station) and to what departs there: the
// agencies, routes, route types, directions and trips. SIRI-SX names stops, lines and journeys
// (trips), or the whole network: a selector with `network` holds for every board of the feed.
import type { AlertSelector } from './model.js';

export interface AlertScope {
  stops: Set<string>;
  /** route_ids and the names boards show them by. */
  routes: Set<string>;
  agencies: Set<string>;
  routeTypes: Set<number>;
  /** directionKey(route, direction), and directionKey(undefined, direction) for any route. */
  directions: Set<string>;
  trips: Set<string>;
}

export const emptyScope = (): AlertScope => ({
  stops: new Set(),
  routes: new Set(),
  agencies: new Set(),
  routeTypes: new Set(),
  directions: new Set(),
  trips: new Set(),
});

export const directionKey = (route: string | undefined, direction: number) => `${route ?? ''}\u0000${direction}`;

/** Whether every field the selector gives holds for the board; a selector giving none matches nothing. */
export function selects(s: AlertSelector, scope: AlertScope): boolean {
  if (s.network) return true;
  const given = [s.agencyId, s.routeId, s.routeType, s.directionId, s.tripId, s.stopId].some((v) => v !== undefined);
  return (
    given &&
    (s.agencyId === undefined || scope.agencies.has(s.agencyId)) &&
    (s.routeId === undefined || scope.routes.has(s.routeId)) &&
    (s.routeType === undefined || scope.routeTypes.has(s.routeType)) &&
    (s.directionId === undefined || scope.directions.has(directionKey(s.routeId, s.directionId))) &&
    (s.tripId === undefined || scope.trips.has(s.tripId)) &&
    (s.stopId === undefined || scope.stops.has(s.stopId))
  );
}
