// A schedule and realtime feeds shaped like the MBTA's (Boston), for the accessibility and
// occupancy tests: Downtown Crossing is a station (`place-dwnxg`, location_type 1) with step-free
// access (wheelchair_boarding 1) whose Orange Line platforms are 70020 (southbound, no value of
// its own: it has its station's) and 70021 (northbound, 2: its elevator is out); trips say
// wheelchair_accessible 1, 2 or nothing; a train after midnight (past 24:00); a shuttle bus run
// by frequencies.txt; and bad records a real export carries (stop times of a trip trips.txt
// does not hold, a trip of a route routes.txt lacks). The MBTA serves TripUpdates and
// VehiclePositions at separate URLs; its positions carry vehicle.trip.trip_id with start_date,
// the vehicle's id and label, occupancy_status, and some vehicles (not in service) no trip.
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { CALENDAR_HEADER, feedMessage, rt, sec } from './fixtures.js';
import { ld } from './nyct.js';

type Row = Array<string | number>;
const OS = rt.VehiclePosition.OccupancyStatus;

/** "HH:MM:SS" of `s` seconds of the service day (hours may pass 24). */
export const hms = (s: number) =>
  [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');

/**
 * The schedule, its first departure from Downtown Crossing at `first` seconds of the service day
 * (the others follow it by minutes): OL-S-1 (+5 min, southbound, accessible), OL-N-1 (+7,
 * northbound, accessible), OL-S-2 (+9, not accessible), OL-S-3 (+12, says nothing), SL-F
 * (the shuttle, every 10 minutes from +3 for an hour, accessible) and OL-S-NIGHT (24:50).
 */
export function mbtaSchedule(first: number): Record<string, Row[]> {
  const trips: Row[] = [
    ['route_id', 'service_id', 'trip_id', 'trip_headsign', 'direction_id', 'wheelchair_accessible'],
  ];
  const times: Row[] = [['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']];
  const trip = (id: string, route: string, dir: number, wc: number | '', at: number, calls: string[]) => {
    trips.push([route, 'ALL', id, dir === 0 ? 'Forest Hills' : 'Oak Grove', dir, wc]);
    calls.forEach((stop, i) => times.push([id, hms(at + (i - 1) * 120), hms(at + (i - 1) * 120), stop, i + 1]));
  };
  const south = ['70036', '70020', '70001'];
  trip('OL-S-1', 'Orange', 0, 1, first + 300, south);
  trip('OL-N-1', 'Orange', 1, 1, first + 420, ['70001', '70021', '70036']);
  trip('OL-S-2', 'Orange', 0, 2, first + 540, south);
  trip('OL-S-3', 'Orange', 0, '', first + 720, south);
  trip('OL-S-NIGHT', 'Orange', 0, 1, 24 * 3600 + 50 * 60, south);
  // The shuttle's stop times are a template; frequencies.txt runs it.
  trip('SL-F', 'Shuttle-Orange', 0, 1, 120, south);
  // Bad records: stop times of a trip trips.txt lacks, and a trip of a route routes.txt lacks.
  times.push(['OL-GHOST', hms(first + 360), hms(first + 360), '70020', 1]);
  trip('OL-NO-ROUTE', 'Purple', 0, 1, first + 480, south);
  return {
    'agency.txt': [
      ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang'],
      ['1', 'MBTA', 'http://www.mbta.com', 'America/New_York', 'EN'],
    ],
    'stops.txt': [
      ['stop_id', 'stop_name', 'location_type', 'parent_station', 'platform_code', 'wheelchair_boarding'],
      ['place-dwnxg', 'Downtown Crossing', 1, '', '', 1],
      ['70020', 'Downtown Crossing', 0, 'place-dwnxg', '', ''],
      ['70021', 'Downtown Crossing', 0, 'place-dwnxg', '', 2],
      ['place-ogmnl', 'Oak Grove', 1, '', '', 1],
      ['70036', 'Oak Grove', 0, 'place-ogmnl', '', 0],
      ['place-forhl', 'Forest Hills', 1, '', '', 1],
      ['70001', 'Forest Hills', 0, 'place-forhl', '', 0],
    ],
    'routes.txt': [
      ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type'],
      ['Orange', '1', 'OL', 'Orange Line', 1],
      ['Shuttle-Orange', '1', 'SHU', 'Orange Line Shuttle', 3],
    ],
    'trips.txt': trips,
    'stop_times.txt': times,
    'frequencies.txt': [
      ['trip_id', 'start_time', 'end_time', 'headway_secs', 'exact_times'],
      ['SL-F', hms(first + 60), hms(first + 3660), 600, 1],
    ],
    'calendar.txt': [CALENDAR_HEADER, ['ALL', 1, 1, 1, 1, 1, 1, 1, '20260101', '20281231']],
  };
}

/** TripUpdates as the MBTA's: OL-S-1 a minute late with its vehicle (y1801); OL-N-1 on time, its vehicle y1900. */
export function mbtaTripUpdates(now: number, date: string): Buffer {
  const update = (id: string, vehicle: string, delay: number) => ({
    id,
    tripUpdate: {
      trip: { tripId: id, startDate: date, routeId: 'Orange', directionId: id.includes('-N-') ? 1 : 0 },
      vehicle: { id: vehicle, label: vehicle.slice(1) },
      stopTimeUpdate: [{ stopSequence: 2, departure: { delay } }],
      timestamp: sec(now),
    },
  });
  return feedMessage([update('OL-S-1', 'y1801', 60), update('OL-N-1', 'y1900', 0)], now);
}

/**
 * VehiclePositions as the MBTA's: OL-S-1's vehicle full; y1900 (OL-N-1's vehicle) on its way
 * between trips, no trip in its position, few seats; the shuttle's run in service, standing room;
 * OL-S-2 tomorrow's run (another start_date): not today's; a vehicle out of service with neither
 * trip nor occupancy; and two entities that cannot be read (a timestamp in milliseconds, broken bytes).
 */
export function mbtaVehiclePositions(now: number, date: string, tomorrow: string, shuttleStart: string): Buffer {
  const vp = (id: string, v: GtfsRealtimeBindings.transit_realtime.IVehiclePosition) => ({
    id,
    vehicle: {
      position: { latitude: 42.3555, longitude: -71.0605, bearing: 180 },
      currentStatus: rt.VehiclePosition.VehicleStopStatus.IN_TRANSIT_TO,
      timestamp: sec(now) - 15,
      ...v,
    },
  });
  const good = feedMessage(
    [
      vp('y1801', {
        trip: { tripId: 'OL-S-1', startDate: date, routeId: 'Orange' },
        vehicle: { id: 'y1801', label: '1801' },
        occupancyStatus: OS.FULL,
      }),
      vp('y1900', { vehicle: { id: 'y1900', label: '1900' }, occupancyStatus: OS.FEW_SEATS_AVAILABLE }),
      vp('y0700', {
        trip: { tripId: 'SL-F', startDate: date, startTime: shuttleStart },
        vehicle: { id: 'y0700', label: '0700' },
        occupancyStatus: OS.STANDING_ROOM_ONLY,
      }),
      vp('y1822', {
        trip: { tripId: 'OL-S-2', startDate: tomorrow },
        vehicle: { id: 'y1822' },
        occupancyStatus: OS.EMPTY,
      }),
      vp('y1999', { vehicle: { id: 'y1999', label: '1999' } }),
      vp('y1500', {
        trip: { tripId: 'OL-S-3', startDate: date },
        vehicle: { id: 'y1500' },
        occupancyStatus: OS.MANY_SEATS_AVAILABLE,
        timestamp: (sec(now) - 15) * 1000,
      }),
    ],
    now,
  );
  // A last entity whose vehicle field is broken bytes.
  return Buffer.concat([
    good,
    ld(2, Buffer.concat([ld(1, 'y2000'), ld(4, Buffer.from([0x0a, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff]))])),
  ]);
}
