// A schedule shaped like a real agency's (MTA New York City Transit, with a bus route and one
// long-distance train), for the departures tests: stations (location_type 1) whose platforms
// are N and S, a short-turn train ending at Times Sq, the 42 St shuttle as frequency-based
// trips (exact_times 0 and 1) ending at each end, a bus whose airport ramp stop is drop-off
// only (pickup_type 1), non-timepoint stops with blank times (with and without
// shape_dist_traveled), a night train after 24:00 on the night clocks go forward (8 March
// 2026, 02:00 EST -> 03:00 EDT), and a stop with its own stop_timezone (Chicago).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CALENDAR_HEADER, gtfsZip } from './fixtures.js';

/** Friday 6 March 2026, 21:00 EST (UTC-5). */
export const FRI_2100 = Date.UTC(2026, 2, 7, 2, 0);
/** Where Friday's GTFS times count from: midnight EST. */
export const FRI_BASE = Date.UTC(2026, 2, 6, 5, 0);
/** Sunday 8 March 2026, 01:50 EST: Saturday's service day at 25:50, ten minutes before the clocks go forward. */
export const SUN_0150 = Date.UTC(2026, 2, 8, 6, 50);
/** An instant `hh:mm[:ss]` of Friday's service day. */
export const fri = (hhmm: string) => {
  const [h, m, s] = hhmm.split(':').map(Number);
  return FRI_BASE + ((h * 60 + m) * 60 + (s ?? 0)) * 1000;
};

type Row = Array<string | number>;

export function subway(): Record<string, Row[]> {
  const trips: Row[] = [['route_id', 'service_id', 'trip_id', 'trip_headsign', 'direction_id']];
  const times: Row[] = [
    [
      'trip_id',
      'arrival_time',
      'departure_time',
      'stop_id',
      'stop_sequence',
      'pickup_type',
      'drop_off_type',
      'shape_dist_traveled',
    ],
  ];
  /** Calls: [stop, time ('' = blank), pickup_type?, shape_dist_traveled?]. */
  const trip = (
    id: string,
    route: string,
    service: string,
    headsign: string,
    calls: Array<[string, string, number?, number?]>,
  ) => {
    trips.push([route, service, id, headsign, /N$/.test(calls[0][0]) ? 0 : 1]);
    calls.forEach(([stop, t, pickup, dist], i) =>
      times.push([id, t, t, stop, (i + 1) * 10, pickup ?? '', '', dist ?? '']),
    );
  };
  trip('1-S-2118', '1', 'WK', 'South Ferry', [
    ['126S', '21:18:00'],
    ['127S', '21:20:00'],
    ['128S', '21:22:00'],
  ]);
  trip('1-N-2121', '1', 'WK', 'Van Cortlandt Park-242 St', [
    ['128N', '21:21:00'],
    ['127N', '21:23:00'],
    ['126N', '21:25:00'],
  ]);
  // A short turn: it ends at Times Sq, where no passenger boards it.
  trip('1-S-2128', '1', 'WK', 'Times Sq-42 St', [
    ['126S', '21:28:00'],
    ['127S', '21:30:00'],
  ]);
  trip('1-S-2138', '1', 'WK', 'South Ferry', [
    ['126S', '21:38:00'],
    ['127S', '21:40:00'],
    ['128S', '21:42:00'],
  ]);
  // The shuttle: stop times are a template, the trips run at frequencies.txt's headways.
  trip('GS-GC', 'GS', 'WK', 'Grand Central-42 St', [
    ['902S', '00:00:00'],
    ['901S', '00:02:00'],
  ]);
  trip('GS-TS', 'GS', 'WK', 'Times Sq-42 St', [
    ['901N', '00:00:00'],
    ['902N', '00:01:30'],
  ]);
  trip('GS-GC-NIGHT', 'GS', 'SAT', 'Grand Central-42 St', [
    ['902S', '10:00:00'],
    ['901S', '10:02:00'],
  ]);
  // The M60-SBS to LaGuardia: at Terminal C passengers only get off; from the airport they board there.
  trip('M60-LGA', 'M60+', 'WK', 'LaGuardia Airport', [
    ['BUS-125', '21:00:00'],
    ['LGA-C', '21:11:00', 1],
    ['LGA-B', '21:15:00'],
  ]);
  trip('M60-125', 'M60+', 'WK', '125 St', [
    ['LGA-B', '21:05:00'],
    ['LGA-C', '21:09:00'],
    ['BUS-125', '21:30:00'],
  ]);
  // M15 timepoints at 1 Av/14 St and South Ferry; the stops between are not timepoints.
  trip('M15-2100', 'M15', 'WK', 'South Ferry', [
    ['M15-A', '21:00:00', 0, 0],
    ['M15-B', '', 0, 1000],
    ['M15-C', '', 0, 4000],
    ['M15-D', '21:30:00', 0, 6000],
  ]);
  trip('M15-2140', 'M15', 'WK', 'South Ferry', [
    ['M15-A', '21:40:00'],
    ['M15-B', ''],
    ['M15-C', ''],
    ['M15-D', '22:10:00'],
  ]);
  // Saturday's last train, past 24:00 on the night the clocks go forward; Times Sq is not a timepoint.
  trip('1-S-NIGHT', '1', 'SAT', 'South Ferry', [
    ['126S', '26:10:00'],
    ['127S', ''],
    ['128S', '26:30:00'],
  ]);
  // Amtrak's Lake Shore Limited, timed in New York's zone, calls at Chicago (stop_timezone America/Chicago).
  trip('LSL-49', 'LSL', 'WK', 'Chicago', [
    ['NYP', '15:40:00'],
    ['CHI-1', '33:45:00'],
    ['CHI-9', '33:50:00'],
  ]);

  const station = (id: string, name: string): Row[] => [
    [id, name, 1, '', '', ''],
    [`${id}N`, name, 0, id, '', ''],
    [`${id}S`, name, 0, id, '', ''],
  ];
  return {
    'agency.txt': [
      ['agency_id', 'agency_name', 'agency_url', 'agency_timezone'],
      ['MTA NYCT', 'MTA New York City Transit', 'http://www.mta.info', 'America/New_York'],
    ],
    'stops.txt': [
      ['stop_id', 'stop_name', 'location_type', 'parent_station', 'platform_code', 'stop_timezone'],
      ...station('126', '50 St'),
      ...station('127', 'Times Sq-42 St'),
      ...station('128', '34 St-Penn Station'),
      ...station('901', 'Grand Central-42 St'),
      ...station('902', 'Times Sq-42 St'),
      ['BUS-125', 'E 125 St/Lexington Av', 0, '', '', ''],
      ['LGA-C', 'LaGuardia Airport Terminal C', 0, '', '', ''],
      ['LGA-B', 'LaGuardia Airport Terminal B', 0, '', '', ''],
      ['M15-A', '1 Av/E 14 St', 0, '', '', ''],
      ['M15-B', '1 Av/E 10 St', 0, '', '', ''],
      ['M15-C', 'Allen St/Delancey St', 0, '', '', ''],
      ['M15-D', 'South Ferry', 0, '', '', ''],
      ['NYP', 'New York Penn Station', 0, '', '', ''],
      ['CHI', 'Chicago Union Station', 1, '', '', 'America/Chicago'],
      ['CHI-1', 'Chicago Union Station', 0, 'CHI', '1', ''],
      ['CHI-9', 'Chicago Union Station yard', 0, '', '', ''],
    ],
    'routes.txt': [
      ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type'],
      ['1', 'MTA NYCT', '1', 'Broadway - 7 Avenue Local', 1],
      ['GS', 'MTA NYCT', 'S', '42 St Shuttle', 1],
      ['M60+', 'MTA NYCT', 'M60-SBS', 'LaGuardia Airport - W 106 St', 3],
      ['M15', 'MTA NYCT', 'M15', '1 Av / 2 Av', 3],
      ['LSL', 'MTA NYCT', 'LSL', 'Lake Shore Limited', 2],
    ],
    'trips.txt': trips,
    'stop_times.txt': times,
    'frequencies.txt': [
      ['trip_id', 'start_time', 'end_time', 'headway_secs', 'exact_times'],
      ['GS-GC', '05:00:00', '24:00:00', 180, 0],
      ['GS-TS', '05:00:00', '24:00:00', 180, 1],
      ['GS-GC-NIGHT', '24:00:00', '27:00:00', 1200, 1],
    ],
    'calendar.txt': [
      CALENDAR_HEADER,
      ['WK', 1, 1, 1, 1, 1, 0, 0, '20260101', '20261231'],
      ['SAT', 0, 0, 0, 0, 0, 1, 0, '20260101', '20261231'],
    ],
  };
}

/** The schedule's zip bytes, written in `dir`. */
export async function subwayZip(dir: string, tables = subway()): Promise<Buffer> {
  return readFileSync(await gtfsZip(path.join(dir, 'subway.zip'), tables));
}
