// What a schedule keeps, as it crosses from its reading thread (schedule-worker.ts) to the
// service: every string once in one list, every number and reference in typed arrays, which
// move without a copy. Handed over as objects, the 560,000 stop times of a busy interchange took
// 0.6-0.9 s to rebuild in the event loop (the panel's frames wait meanwhile); unpacked from
// this, in slices between which the event loop runs, a slice holds it a few ms (the collector,
// which keeps what is unpacked, may hold it longer, as it did while the schedule was read here).
//
// Layout (indexes into `strings`; -1 = none):
//   trips:      per trip, TRIP_FIELDS Int32: id, routeId, route, serviceId, headsign, first stop
//               (-1 none)
//   stops:      per stop time, STOP_FIELDS Int32: stopId, headsign; `seq` and `sec` as Float64
//               (either may be NaN); `flags` a Uint8 (bit 0: pickup_type 1); a trip's stop times run
//               from its first to the next one's
//   boardsOf:   pairs stop, board (a stop once per board)   platforms: pairs stop, platform code
//   zones:      pairs stop, stop_timezone    names: pairs stop, stop_name    stations: pairs stop, parent
//   wheelchair: pairs stop, wheelchair_boarding ("1" or "2")
//   routes:     per route, 3 Int32: routeId, agency_id, route_type
//   frequencies: per period, 5 Int32: trip index, start, end, headway (seconds), exact_times
//   weekly:     per service, 4 Int32: serviceId, weekdays (bit 0 Monday), start, end
//   exceptions: per date, 3 Int32: serviceId, date, 1 added / 0 removed
//   traits:     per trip, a Uint8 (trip-traits.ts)
import type { Transferable } from 'node:worker_threads';
import type { RouteInfo, ScheduleParts, ServiceDays, StopTime, TripInfo } from './schedule.js';
import { packTraits, unpackTraits } from './trip-traits.js';

export interface PackedSchedule {
  strings: string[];
  trips: Int32Array;
  stops: Int32Array;
  seq: Float64Array;
  sec: Float64Array;
  flags: Uint8Array;
  traits: Uint8Array;
  boardsOf: Int32Array;
  frequencies: Int32Array;
  zones: Int32Array;
  wheelchair: Int32Array;
  platforms: Int32Array;
  names: Int32Array;
  stations: Int32Array;
  routes: Int32Array;
  weekly: Int32Array;
  exceptions: Int32Array;
  agencyZone?: string;
}

const TRIP_FIELDS = 6;
const STOP_FIELDS = 2;
/** The longest the event loop is held by one slice of unpacking. */
const SLICE_MS = 4;

/** Between slices the event loop runs (a frame, a command). */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export function packSchedule(p: ScheduleParts): PackedSchedule {
  const index = new Map<string, number>();
  const strings: string[] = [];
  const ref = (s: string | undefined) => {
    if (s === undefined) return -1;
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  let stopCount = 0;
  for (const t of p.trips.values()) stopCount += t.stops.length;
  const trips = new Int32Array(p.trips.size * TRIP_FIELDS);
  const stops = new Int32Array(stopCount * STOP_FIELDS);
  const seq = new Float64Array(stopCount);
  const sec = new Float64Array(stopCount);
  const flags = new Uint8Array(stopCount);
  let ti = 0;
  let si = 0;
  const frequencies: number[] = [];
  for (const t of p.trips.values()) {
    for (const f of t.frequencies ?? []) frequencies.push(ti, f.start, f.end, f.headway, f.exact ? 1 : 0);
    trips.set([ref(t.id), ref(t.routeId), ref(t.route), ref(t.serviceId), ref(t.headsign), si], ti * TRIP_FIELDS);
    ti++;
    for (const s of t.stops) {
      stops[si * STOP_FIELDS] = ref(s.stopId);
      stops[si * STOP_FIELDS + 1] = ref(s.headsign);
      seq[si] = s.seq;
      sec[si] = s.sec;
      flags[si] = s.noPickup ? 1 : 0;
      si++;
    }
  }
  const pairs = (m: Map<string, string>) => Int32Array.from([...m].flatMap(([k, v]) => [ref(k), ref(v)]));
  const lists = (m: Map<string, string[]>) =>
    Int32Array.from([...m].flatMap(([k, vs]) => vs.flatMap((v) => [ref(k), ref(v)])));
  const weekdays = (week: boolean[]) => week.reduce((bits, on, d) => bits | (on ? 1 << d : 0), 0);
  const weekly = Int32Array.from(
    [...p.days.weekly].flatMap(([id, w]) => [ref(id), weekdays(w.week), ref(w.start), ref(w.end)]),
  );
  const exceptions: number[] = [];
  for (const [id, dates] of p.days.exceptions) {
    for (const [date, added] of dates) exceptions.push(ref(id), ref(date), added ? 1 : 0);
  }
  const traits = Uint8Array.from([...p.trips.values()].map(packTraits));
  return {
    strings,
    trips,
    stops,
    seq,
    sec,
    flags,
    traits,
    boardsOf: lists(p.boardsOf),
    frequencies: Int32Array.from(frequencies),
    zones: pairs(p.zones),
    wheelchair: pairs(p.wheelchair),
    platforms: pairs(p.platforms),
    names: pairs(p.names),
    stations: pairs(p.stations),
    routes: Int32Array.from([...p.routes].flatMap(([id, r]) => [ref(id), ref(r.agencyId), r.type])),
    weekly,
    exceptions: Int32Array.from(exceptions),
    ...(p.agencyZone === undefined ? {} : { agencyZone: p.agencyZone }),
  };
}

/** The typed arrays' memory, moved to the receiving thread. */
export function packedBuffers(p: PackedSchedule): Transferable[] {
  const arrays = [
    p.trips,
    p.stops,
    p.seq,
    p.sec,
    p.flags,
    p.traits,
    p.boardsOf,
    p.frequencies,
    p.zones,
    p.wheelchair,
    p.platforms,
    p.names,
    p.stations,
    p.routes,
    p.weekly,
    p.exceptions,
  ];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/** The schedule's parts again, built in slices of at most some SLICE_MS, yielding to the event loop between them. */
export async function unpackSchedule(p: PackedSchedule): Promise<ScheduleParts> {
  const str = (i: number) => p.strings[i];
  const trips = new Map<string, TripInfo>();
  const byIndex: TripInfo[] = [];
  const tripCount = p.trips.length / TRIP_FIELDS;
  const stopCount = p.seq.length;
  let sliceStart = performance.now();
  for (let ti = 0; ti < tripCount; ti++) {
    const o = ti * TRIP_FIELDS;
    const first = p.trips[o + 5];
    const end = ti + 1 < tripCount ? p.trips[o + TRIP_FIELDS + 5] : stopCount;
    const stops: StopTime[] = [];
    for (let si = first; si < end; si++) {
      const h = p.stops[si * STOP_FIELDS + 1];
      const stop: StopTime = {
        seq: p.seq[si],
        stopId: str(p.stops[si * STOP_FIELDS]),
        sec: p.sec[si],
        headsign: h < 0 ? undefined : str(h),
      };
      if ((p.flags[si] & 1) === 1) stop.noPickup = true;
      stops.push(stop);
    }
    const id = str(p.trips[o]);
    const trip: TripInfo = {
      id,
      routeId: str(p.trips[o + 1]),
      route: str(p.trips[o + 2]),
      serviceId: str(p.trips[o + 3]),
      headsign: str(p.trips[o + 4]),
      stops,
    };
    unpackTraits(p.traits[ti], trip);
    trips.set(id, trip);
    byIndex.push(trip);
    if ((ti & 63) === 63 && performance.now() - sliceStart > SLICE_MS) {
      await pause();
      sliceStart = performance.now();
    }
  }
  const pairs = (a: Int32Array) => {
    const m = new Map<string, string>();
    for (let i = 0; i < a.length; i += 2) m.set(str(a[i]), str(a[i + 1]));
    return m;
  };
  const fq = p.frequencies;
  for (let i = 0; i < fq.length; i += 5) {
    (byIndex[fq[i]].frequencies ??= []).push({
      start: fq[i + 1],
      end: fq[i + 2],
      headway: fq[i + 3],
      exact: fq[i + 4] === 1,
    });
  }
  const boardsOf = new Map<string, string[]>();
  for (let i = 0; i < p.boardsOf.length; i += 2) {
    const stop = str(p.boardsOf[i]);
    const list = boardsOf.get(stop);
    if (list) list.push(str(p.boardsOf[i + 1]));
    else boardsOf.set(stop, [str(p.boardsOf[i + 1])]);
  }
  const days: ServiceDays = { weekly: new Map(), exceptions: new Map() };
  for (let i = 0; i < p.weekly.length; i += 4) {
    const bits = p.weekly[i + 1];
    const week = Array.from({ length: 7 }, (_, d) => (bits & (1 << d)) !== 0);
    days.weekly.set(str(p.weekly[i]), { week, start: str(p.weekly[i + 2]), end: str(p.weekly[i + 3]) });
  }
  for (let i = 0; i < p.exceptions.length; i += 3) {
    if (i % 3072 === 0 && performance.now() - sliceStart > SLICE_MS) {
      await pause();
      sliceStart = performance.now();
    }
    const id = str(p.exceptions[i]);
    let dates = days.exceptions.get(id);
    if (!dates) {
      dates = new Map();
      days.exceptions.set(id, dates);
    }
    dates.set(str(p.exceptions[i + 1]), p.exceptions[i + 2] === 1);
  }
  const routes = new Map<string, RouteInfo>();
  for (let i = 0; i < p.routes.length; i += 3)
    routes.set(str(p.routes[i]), { agencyId: str(p.routes[i + 1]), type: p.routes[i + 2] });
  return {
    trips,
    boardsOf,
    days,
    agencyZone: p.agencyZone,
    platforms: pairs(p.platforms),
    zones: pairs(p.zones),
    wheelchair: pairs(p.wheelchair),
    names: pairs(p.names),
    routes,
    stations: pairs(p.stations),
  };
}
