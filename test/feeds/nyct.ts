// Feeds shaped like New York City Transit's subway feeds: the header and trip descriptors carry
// NYCT's extensions (field 1001: nyct-subway.proto's NyctFeedHeader, NyctTripDescriptor with
// train_id, is_assigned and direction, NyctStopTimeUpdate with tracks), trip ids are the
// origin time in hundredths of a minute and the route ("068700_1..S03R") with a start_date,
// times are absolute, and trips the schedule does not hold come and go. Built from the
// bindings' encodings with the extension bytes appended, as NYCT's producer sends them.
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { CALENDAR_HEADER, rt, sec } from './fixtures.js';

type Bytes = Uint8Array;

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
/** A length-delimited field. */
export const ld = (field: number, bytes: Bytes | string): Buffer => {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
  return Buffer.concat([Buffer.from([...varint(field * 8 + 2), ...varint(b.length)]), b]);
};
const vf = (field: number, n: number) => Buffer.from([...varint(field * 8), ...varint(n)]);

/** NyctFeedHeader: nyct_subway_version 1.0, trip_replacement_period 30 min for `routes`. */
function nyctHeader(now: number, routes: string[]): Buffer {
  const periods = routes.map((r) => ld(2, Buffer.concat([ld(1, r), ld(2, vf(2, sec(now) + 1800))])));
  return ld(1001, Buffer.concat([ld(1, '1.0'), ...periods]));
}

export interface NyctStop {
  stop: string;
  arrival?: number;
  departure?: number;
  track?: string;
  skipped?: boolean;
  /** stop_time_properties.pickup_type NONE: passengers only get off. */
  noPickup?: boolean;
}
export interface NyctTrip {
  /** The entity id (NYCT numbers them "000001", ...). */
  id: string;
  tripId: string;
  route: string;
  startDate: string;
  stops: NyctStop[];
  relationship?: GtfsRealtimeBindings.transit_realtime.TripDescriptor.ScheduleRelationship;
  /** The raw entity instead (a malformed one). */
  raw?: Buffer;
}

function tripUpdate(t: NyctTrip): Buffer {
  const td = Buffer.from(
    rt.TripDescriptor.encode({
      tripId: t.tripId,
      routeId: t.route,
      startDate: t.startDate,
      scheduleRelationship: t.relationship ?? 0,
    }).finish(),
  );
  // NyctTripDescriptor: train_id, is_assigned, direction (1 north, 3 south).
  const ext = ld(
    1001,
    Buffer.concat([
      ld(1, `0${t.route} ${t.tripId.slice(0, 4)}+ 242/SFT`),
      vf(2, 1),
      vf(3, t.tripId.includes('..S') ? 3 : 1),
    ]),
  );
  const stus = t.stops.map((s) => {
    const stu = Buffer.from(
      rt.TripUpdate.StopTimeUpdate.encode({
        stopId: s.stop,
        ...(s.arrival !== undefined ? { arrival: { time: sec(s.arrival) } } : {}),
        ...(s.departure !== undefined ? { departure: { time: sec(s.departure) } } : {}),
        ...(s.skipped ? { scheduleRelationship: rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED } : {}),
        ...(s.noPickup
          ? {
              stopTimeProperties: {
                pickupType: rt.TripUpdate.StopTimeUpdate.StopTimeProperties.DropOffPickupType.NONE,
              },
            }
          : {}),
      }).finish(),
    );
    return ld(
      2,
      Buffer.concat([stu, s.track ? ld(1001, Buffer.concat([ld(1, s.track), ld(2, s.track)])) : Buffer.alloc(0)]),
    );
  });
  return Buffer.concat([ld(1, Buffer.concat([td, ext])), ...stus]);
}

/** A FeedMessage as NYCT sends it: header and entities with their extensions. */
export function nyctFeed(now: number, trips: NyctTrip[]): Buffer {
  const header = Buffer.concat([
    Buffer.from(rt.FeedHeader.encode({ gtfsRealtimeVersion: '1.0', incrementality: 0, timestamp: sec(now) }).finish()),
    nyctHeader(now, [...new Set(trips.map((t) => t.route))]),
  ]);
  const entities = trips.map((t) => ld(2, t.raw ?? Buffer.concat([ld(1, t.id), ld(3, tripUpdate(t))])));
  return Buffer.concat([ld(1, header), ...entities]);
}

/** Friday 4 December 2026, 11:40 in New York (UTC-5). */
export const NY0 = Date.UTC(2026, 11, 4, 16, 40, 0);
/** Where the GTFS times of Friday's service day count from (noon minus 12 h, New York). */
export const NY_BASE = Date.UTC(2026, 11, 4, 5, 0, 0);
export const nyAt = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return NY_BASE + (h * 60 + m) * 60_000;
};

type Row = Array<string | number>;
/**
 * A piece of the subway's schedule as NYCT publishes it: stations (location_type 1) with their
 * N and S platforms, the 1 train's southbound trips through Times Sq-42 St (127S) to South
 * Ferry, one after midnight (24:49, Friday's service).
 */
export function nycSchedule(): Record<string, Row[]> {
  const trips: Row[] = [['route_id', 'trip_id', 'service_id', 'trip_headsign', 'direction_id', 'shape_id']];
  const times: Row[] = [['trip_id', 'stop_id', 'arrival_time', 'departure_time', 'stop_sequence']];
  const trip = (origin: string, calls: Array<[string, string]>) => {
    const id = `${origin}_1..S03R`;
    trips.push(['1', id, 'Weekday', 'South Ferry', 1, '1..S03R']);
    calls.forEach(([stop, t], i) => times.push([id, stop, t, t, i + 1]));
  };
  trip('068700', [
    ['101S', '11:27:00'],
    ['127S', '11:55:30'],
    ['142S', '12:10:00'],
  ]);
  trip('070200', [
    ['101S', '11:42:00'],
    ['127S', '12:10:30'],
    ['142S', '12:25:00'],
  ]);
  trip('148900', [
    ['101S', '24:49:00'],
    ['127S', '25:17:30'],
    ['142S', '25:32:00'],
  ]);
  return {
    'agency.txt': [
      ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang'],
      ['MTA NYCT', 'MTA New York City Transit', 'http://www.mta.info', 'America/New_York', 'en'],
    ],
    'stops.txt': [
      ['stop_id', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station'],
      ['101', 'Van Cortlandt Park-242 St', 40.889248, -73.898583, 1, ''],
      ['101N', 'Van Cortlandt Park-242 St', 40.889248, -73.898583, '', '101'],
      ['101S', 'Van Cortlandt Park-242 St', 40.889248, -73.898583, '', '101'],
      ['127', 'Times Sq-42 St', 40.75529, -73.987495, 1, ''],
      ['127N', 'Times Sq-42 St', 40.75529, -73.987495, '', '127'],
      ['127S', 'Times Sq-42 St', 40.75529, -73.987495, '', '127'],
      ['137', '28 St', 40.747215, -73.993365, 1, ''],
      ['137S', '28 St', 40.747215, -73.993365, '', '137'],
      ['142', 'South Ferry', 40.702068, -74.013664, 1, ''],
      ['142S', 'South Ferry', 40.702068, -74.013664, '', '142'],
    ],
    'routes.txt': [
      ['agency_id', 'route_id', 'route_short_name', 'route_long_name', 'route_type', 'route_color'],
      ['MTA NYCT', '1', '1', 'Broadway - 7 Avenue Local', 1, 'EE352E'],
    ],
    'trips.txt': trips,
    'stop_times.txt': times,
    'calendar.txt': [CALENDAR_HEADER, ['Weekday', 1, 1, 1, 1, 1, 0, 0, '20261101', '20270430']],
  };
}
