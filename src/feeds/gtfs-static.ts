// Reads a GTFS schedule (https://gtfs.org/documentation/schedule/reference/) from its zip as
// a stream, keeping only what the boards need: the stops the configuration's departures areas
// name (and their child platforms), the trips that call there with all their stop times (a
// delay given at an earlier stop is propagated from that stop's scheduled time), those trips'
// routes, services (calendar.txt, calendar_dates.txt) and frequencies, agency.txt's zone and the names of
// the stops the trips end at. stop_times.txt is read twice (first which trips call at the
// stops, then those trips' rows), so a national feed of hundreds of MB passes through in the
// memory of one zip chunk and one CSV record, plus what is kept, which is bounded
// (gtfs-limits.ts). The service reads it in a thread of its own (schedule-reader.ts).
import yauzl from 'yauzl';
import type { Readable } from 'node:stream';
import { byHeader, CsvReader, own } from './csv.js';
import {
  GtfsError,
  InflateBudget,
  keptId,
  keptText,
  MAX_ENTRIES,
  MAX_KEPT_STOP_TIMES,
  MAX_KEPT_STOPS,
  MAX_KEPT_TRIPS,
} from './gtfs-limits.js';
import { fillBlankTimes } from './blank-times.js';
import {
  gtfsSeconds,
  Schedule,
  type RouteInfo,
  type ScheduleParts,
  type ServiceDays,
  type StopTime,
  type TripInfo,
} from './schedule.js';
import { readTraits } from './trip-traits.js';

export { GtfsError, gtfsSeconds };

const FILES = [
  'stops.txt',
  'trips.txt',
  'stop_times.txt',
  'routes.txt',
  'calendar.txt',
  'calendar_dates.txt',
  'agency.txt',
  'frequencies.txt',
];

type Entries = Map<string, yauzl.Entry>;

/** The schedule in `file` for the stops `wanted`, read in this thread; its files may unzip to `maxBytes` in all. */
export async function loadGtfs(file: string, wanted: ReadonlySet<string>, maxBytes = Infinity): Promise<Schedule> {
  return new Schedule(await readGtfs(file, wanted, maxBytes));
}

/** What `loadGtfs` keeps, as plain data (a thread hands it over as it is). */
export async function readGtfs(file: string, wanted: ReadonlySet<string>, maxBytes: number): Promise<ScheduleParts> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch (err) {
    throw new GtfsError(`the schedule is not a zip file (${(err as Error).message})`);
  }
  try {
    if (zip.entryCount > MAX_ENTRIES) {
      throw new GtfsError(`the schedule zip holds ${zip.entryCount} entries (at most ${MAX_ENTRIES})`);
    }
    const entries: Entries = new Map();
    for await (const e of zip.eachEntry()) {
      // A feed zipped with its folder: its files one level down count too.
      const name = e.fileName.replace(/^[^/]+\//, '');
      if (FILES.includes(name) && !entries.has(name)) entries.set(name, e);
    }
    for (const required of ['stops.txt', 'trips.txt', 'stop_times.txt', 'routes.txt']) {
      if (!entries.has(required)) throw new GtfsError(`the schedule has no ${required}`);
    }
    const budget = new InflateBudget(maxBytes);
    budget.declared(new Map(FILES.filter((f) => entries.has(f)).map((f) => [f, entries.get(f)!.uncompressedSize])));
    return await read(zip, entries, wanted, budget);
  } finally {
    zip.close();
  }
}

type OnRow = (get: (column: string) => string) => void;

async function read(
  zip: yauzl.ZipFile,
  entries: Entries,
  wanted: ReadonlySet<string>,
  budget: InflateBudget,
): Promise<ScheduleParts> {
  const csv = (name: string, onRow: OnRow) => readCsv(zip, entries.get(name), budget, onRow);

  // The stops named, and the platforms whose parent_station is one of them: a platform named by
  // one board still counts for another board on its station.
  const boardsOf = new Map<string, string[]>();
  const parents = new Map<string, string>();
  await csv('stops.txt', (get) => {
    const id = get('stop_id');
    const parent = get('parent_station');
    const boards: string[] = [];
    if (wanted.has(id)) boards.push(keptId('stops.txt', 'stop_id', id));
    if (parent && wanted.has(parent)) boards.push(own(parent));
    if (!boards.length) return;
    if (boardsOf.size >= MAX_KEPT_STOPS) {
      throw new GtfsError(`the boards' stops have more than ${MAX_KEPT_STOPS} platforms`);
    }
    boardsOf.set(keptId('stops.txt', 'stop_id', id), boards);
    if (parent) parents.set(own(id), keptId('stops.txt', 'parent_station', parent));
  });

  const tripIds = new Set<string>();
  await csv('stop_times.txt', (get) => {
    if (!boardsOf.has(get('stop_id'))) return;
    const id = get('trip_id');
    if (tripIds.has(id)) return;
    if (tripIds.size >= MAX_KEPT_TRIPS) {
      throw new GtfsError(`more than ${MAX_KEPT_TRIPS} trips call at the boards' stops`);
    }
    tripIds.add(keptId('stop_times.txt', 'trip_id', id));
  });

  const trips = new Map<string, TripInfo>();
  let kept = 0;
  await csv('stop_times.txt', (get) => {
    const tripId = get('trip_id');
    if (!tripIds.has(tripId)) return;
    if (++kept > MAX_KEPT_STOP_TIMES)
      throw new GtfsError(`the boards' stops keep more than ${MAX_KEPT_STOP_TIMES} stop times`);
    let t = trips.get(tripId);
    if (!t) {
      t = { id: own(tripId), routeId: '', route: '', serviceId: '', headsign: '', stops: [] };
      trips.set(t.id, t);
    }
    const headsign = get('stop_headsign');
    const stop: StopTime = {
      seq: Number(get('stop_sequence')),
      stopId: keptId('stop_times.txt', 'stop_id', get('stop_id')),
      sec: gtfsSeconds(get('departure_time') || get('arrival_time')),
      headsign: headsign ? keptText(headsign) : undefined,
    };
    if (get('pickup_type') === '1') stop.noPickup = true;
    t.stops.push(stop);
  });
  for (const t of trips.values()) t.stops.sort((a, b) => a.seq - b.seq);
  await fillBlanks(trips, (name, onRow) => csv(name, onRow));

  const services = new Set<string>();
  const routeIds = new Set<string>();
  await csv('trips.txt', (get) => {
    const t = trips.get(get('trip_id'));
    if (!t) return;
    t.routeId = keptId('trips.txt', 'route_id', get('route_id'));
    t.serviceId = keptId('trips.txt', 'service_id', get('service_id'));
    t.headsign = keptText(get('trip_headsign'));
    readTraits(t, get);
    services.add(t.serviceId);
    routeIds.add(t.routeId);
  });
  const routes = new Map<string, string>();
  const routeInfo = new Map<string, RouteInfo>();
  await csv('routes.txt', (get) => {
    const id = get('route_id');
    if (!routeIds.has(id)) return;
    routes.set(own(id), keptText(get('route_short_name') || get('route_long_name') || id));
    routeInfo.set(own(id), { agencyId: keptText(get('agency_id')), type: Number(get('route_type')) });
  });
  for (const t of trips.values()) t.route = routes.get(t.routeId) ?? t.routeId;
  let periods = 0;
  await csv('frequencies.txt', (get) => {
    const t = trips.get(get('trip_id'));
    if (!t) return;
    if (++periods > MAX_KEPT_TRIPS)
      throw new GtfsError(`frequencies.txt holds more than ${MAX_KEPT_TRIPS} periods of the boards' trips`);
    const f = {
      start: gtfsSeconds(get('start_time')),
      end: gtfsSeconds(get('end_time')),
      headway: Number(get('headway_secs')),
      exact: get('exact_times') === '1',
    };
    if (!Number.isFinite(f.start) || !Number.isFinite(f.end) || !Number.isInteger(f.headway) || f.headway <= 0) return;
    (t.frequencies ??= []).push(f);
  });

  const days: ServiceDays = { weekly: new Map(), exceptions: new Map() };
  await csv('calendar.txt', (get) => {
    const id = get('service_id');
    if (!services.has(id)) return;
    const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(
      (d) => get(d) === '1',
    );
    days.weekly.set(own(id), { week, start: keptText(get('start_date')), end: keptText(get('end_date')) });
  });
  await csv('calendar_dates.txt', (get) => {
    const id = get('service_id');
    if (!services.has(id)) return;
    let m = days.exceptions.get(id);
    if (!m) {
      m = new Map();
      days.exceptions.set(own(id), m);
    }
    m.set(keptText(get('date')), get('exception_type') === '1');
  });
  let agencyZone: string | undefined;
  let agencyId: string | undefined;
  await csv('agency.txt', (get) => {
    agencyZone ??= keptText(get('agency_timezone')) || undefined;
    agencyId ??= keptText(get('agency_id'));
  });
  // routes.txt may leave agency_id out when agency.txt has one agency: that one is the route's.
  for (const r of routeInfo.values()) if (!r.agencyId && agencyId) r.agencyId = agencyId;
  // The stations of the configured stops (an alert for a station reaches its platforms' boards).
  const stations = new Map<string, string>();
  for (const [id, parent] of parents) if (wanted.has(id)) stations.set(id, parent);

  // Names of the stops the trips call at (where a trip without a headsign ends, and where one
  // the schedule lacks may end: an added train on these lines), and platforms.
  const named = new Set<string>();
  for (const t of trips.values()) for (const s of t.stops) named.add(s.stopId);
  const names = new Map<string, string>();
  const platforms = new Map<string, string>();
  const stationIds = new Set(parents.values());
  const ownZones = new Map<string, string>();
  const ownAccess = new Map<string, string>();
  await csv('stops.txt', (get) => {
    const id = get('stop_id');
    const zone = get('stop_timezone');
    if (zone && (boardsOf.has(id) || stationIds.has(id))) ownZones.set(own(id), keptText(zone));
    const access = get('wheelchair_boarding');
    if ((access === '1' || access === '2') && (boardsOf.has(id) || stationIds.has(id))) ownAccess.set(own(id), access);
    if (named.has(id)) names.set(own(id), keptText(get('stop_name')));
    if (boardsOf.has(id) && get('platform_code')) platforms.set(own(id), keptText(get('platform_code')));
  });
  for (const t of trips.values())
    if (!t.headsign && t.stops.length) t.headsign = names.get(t.stops[t.stops.length - 1].stopId) ?? '';
  // A stop without its own stop_timezone or wheelchair_boarding (empty or 0) has its station's
  // (the reference, stops.txt).
  const zones = new Map<string, string>();
  const wheelchair = new Map<string, string>();
  for (const id of boardsOf.keys()) {
    const parent = parents.get(id);
    const zone = ownZones.get(id) ?? (parent === undefined ? undefined : ownZones.get(parent));
    if (zone) zones.set(id, zone);
    const access = ownAccess.get(id) ?? (parent === undefined ? undefined : ownAccess.get(parent));
    if (access) wheelchair.set(id, access);
  }
  return { trips, boardsOf, days, agencyZone, platforms, zones, wheelchair, names, routes: routeInfo, stations };
}

/**
 * Blank stop times filled in (blank-times.ts). Only trips with a blank need shape_dist_traveled,
 * so stop_times.txt is read a third time for those alone, and only when there are any.
 */
async function fillBlanks(
  trips: Map<string, TripInfo>,
  csv: (name: string, onRow: OnRow) => Promise<void>,
): Promise<void> {
  const blank = new Set<string>();
  for (const t of trips.values()) if (t.stops.some((s) => !Number.isFinite(s.sec))) blank.add(t.id);
  if (!blank.size) return;
  const dist = new Map<string, Map<number, number>>();
  await csv('stop_times.txt', (get) => {
    const id = get('trip_id');
    const d = get('shape_dist_traveled');
    if (d === '' || !blank.has(id) || !Number.isFinite(Number(d))) return;
    let m = dist.get(id);
    if (!m) {
      m = new Map();
      dist.set(id, m);
    }
    m.set(Number(get('stop_sequence')), Number(d));
  });
  for (const id of blank) fillBlankTimes(trips.get(id)!.stops, dist.get(id));
}

async function readCsv(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry | undefined,
  budget: InflateBudget,
  onRow: OnRow,
): Promise<void> {
  if (!entry) return;
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (err) {
    throw new GtfsError(`${entry.fileName} cannot be read (${(err as Error).message})`);
  }
  const reader = new CsvReader(byHeader(onRow));
  let at = 0;
  try {
    for await (const chunk of stream) {
      at += (chunk as Buffer).length;
      budget.arrived(entry.fileName, at);
      reader.write(chunk as Buffer);
    }
    reader.end();
  } catch (err) {
    stream.destroy();
    throw err instanceof GtfsError ? err : new GtfsError(`${entry.fileName}: ${(err as Error).message}`);
  }
}
