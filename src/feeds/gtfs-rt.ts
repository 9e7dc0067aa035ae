// GTFS-realtime TripUpdates and Alerts (https://gtfs.org/realtime/reference), decoded with
// MobilityData's gtfs-realtime-bindings one FeedEntity at a time (proto-walk.ts). Times in the
// feed are POSIX seconds (uint64); a value that can only be milliseconds is refused rather
// than shown thirty thousand years late.
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { AlertData, AlertSelector, FeedAlert, RtData, SkippedEntity, StopRt, TripRt } from './model.js';
import { FeedFormatError, textField, walkFields } from './proto-walk.js';
import { keepPosition } from './rider-info.js';

const rt = GtfsRealtimeBindings.transit_realtime;
type Long = { toNumber(): number };
export type Num = number | Long | null | undefined;

/** Above this a "seconds" value is a millisecond clock (it would be after the year 5000). */
const MAX_SECONDS = 1e11;

export function seconds(v: Num, what: string): number | undefined {
  if (v === null || v === undefined) return undefined;
  const n = typeof v === 'number' ? v : v.toNumber();
  if (n > MAX_SECONDS) throw new FeedFormatError(`${what} ${n} is not in POSIX seconds (milliseconds?)`);
  return n;
}

/**
 * Trip updates kept from one feed at most: a busy hub's boards need a few hundred, and a feed
 * naming the boards' stops in every trip must not fill the memory.
 */
export const MAX_TRIP_UPDATES = 5000;
/** Updates of one trip_id for different service days (start_date) kept at most. */
const RUNS_PER_TRIP = 4;

const NO_PICKUP = rt.TripUpdate.StopTimeUpdate.StopTimeProperties.DropOffPickupType.NONE;

/** Unreadable entities named on /status at most (all are counted). */
const SKIPPED_NAMED = 10;

/** Which trips to keep: those the schedule kept, and any trip that names one of the boards' stops. */
export interface RtFilter {
  trips: ReadonlySet<string>;
  stops: ReadonlySet<string>;
}

export async function decodeTripUpdates(buf: Uint8Array, filter: RtFilter, sliceMs = 4): Promise<RtData> {
  const data: RtData = { timestamp: 0, trips: new Map(), skipped: 0, skippedEntities: [] };
  const keep = (e: GtfsRealtimeBindings.transit_realtime.FeedEntity) => {
    if (e.vehicle && !e.isDeleted) {
      data.positions ??= { trips: new Map(), vehicles: new Map() };
      keepPosition(data.positions, e.vehicle, (id) => filter.trips.has(id), MAX_TRIP_UPDATES);
    }
    if (e.isDeleted || !e.tripUpdate) return;
    const trip = tripOf(e.tripUpdate);
    if (
      !trip ||
      !(filter.trips.has(trip.tripId) || trip.stops.some((s) => s.stopId !== undefined && filter.stops.has(s.stopId)))
    )
      return;
    const list = data.trips.get(trip.tripId);
    if (list) {
      if (list.length < RUNS_PER_TRIP) list.push(trip);
    } else if (data.trips.size < MAX_TRIP_UPDATES) data.trips.set(trip.tripId, [trip]);
  };
  await walkFeed(buf, data, keep, sliceMs);
  return data;
}

/**
 * A FeedMessage read field by field (proto-walk.ts): its header's time into `data.timestamp`, each
 * entity to `use` through eachEntity; a message without a header is not a feed.
 */
export async function walkFeed(
  buf: Uint8Array,
  data: { timestamp: number; skipped: number; skippedEntities: SkippedEntity[] },
  use: (e: GtfsRealtimeBindings.transit_realtime.FeedEntity) => void,
  sliceMs: number,
): Promise<void> {
  let header = false;
  await walkFields(
    buf,
    (num, bytes) => {
      if (num === 1) {
        const h = rt.FeedHeader.decode(bytes);
        if (!h.gtfsRealtimeVersion) throw new FeedFormatError('the header has no gtfs_realtime_version');
        data.timestamp = (seconds(h.timestamp as Num, 'the header timestamp') ?? 0) * 1000;
        header = true;
      } else if (num === 2) eachEntity(bytes, data, use);
    },
    sliceMs,
  );
  if (!header) throw new FeedFormatError('not a GTFS-realtime FeedMessage: no header');
}

/**
 * One FeedEntity decoded and used; one the producer got wrong is left out and counted (the first
 * few named with their id), and the rest of the feed stands.
 */
export function eachEntity(
  bytes: Uint8Array,
  skips: { skipped: number; skippedEntities: SkippedEntity[] },
  use: (e: GtfsRealtimeBindings.transit_realtime.FeedEntity) => void,
): void {
  let e: GtfsRealtimeBindings.transit_realtime.FeedEntity | undefined;
  try {
    e = rt.FeedEntity.decode(bytes);
    use(e);
  } catch (err) {
    if (skips.skippedEntities.length < SKIPPED_NAMED) {
      const id = e?.id ?? textField(bytes, 1) ?? '';
      skips.skippedEntities.push({ id: id.slice(0, 100), reason: (err as Error).message.slice(0, 200) });
    }
    skips.skipped++;
  }
}

/**
 * A field the message carries: decoded messages answer a default (0, "") for a field that was
 * not sent, and a stop_sequence or delay of 0 is not the same as none.
 */
export function given<T extends object, K extends keyof T>(m: T | null | undefined, key: K): T[K] | undefined {
  return m && Object.prototype.hasOwnProperty.call(m, key) && m[key] !== null ? m[key] : undefined;
}

function tripOf(u: GtfsRealtimeBindings.transit_realtime.ITripUpdate): TripRt | undefined {
  const t = u.trip;
  if (!t?.tripId) return undefined;
  const SR = rt.TripDescriptor.ScheduleRelationship;
  const cancelled = t.scheduleRelationship === SR.CANCELED;
  const deleted = t.scheduleRelationship === SR.DELETED;
  const tripDelay = given(u, 'delay') ?? undefined;
  const stops: StopRt[] = (u.stopTimeUpdate ?? []).map((s) => {
    if (!given(s, 'stopId') && given(s, 'stopSequence') === undefined)
      throw new FeedFormatError(`trip ${t.tripId}: a stop_time_update names no stop`);
    // Departure wins over arrival, for the time and the delay alike.
    const dep = given(s, 'departure') ?? undefined;
    const arr = given(s, 'arrival') ?? undefined;
    const time =
      seconds(given(dep, 'time') as Num, 'a departure time') ?? seconds(given(arr, 'time') as Num, 'an arrival time');
    const rel = s.scheduleRelationship ?? 0;
    return {
      stopSequence: given(s, 'stopSequence') ?? undefined,
      stopId: given(s, 'stopId') || undefined,
      time: time === undefined ? undefined : time * 1000,
      delay: given(dep, 'delay') ?? given(arr, 'delay') ?? undefined,
      skipped: rel === rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED,
      noData: rel === rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.NO_DATA,
      ...(given(s.stopTimeProperties, 'pickupType') === NO_PICKUP ? { noPickup: true as const } : {}),
      assignedStopId: given(given(s, 'stopTimeProperties'), 'assignedStopId') || undefined,
      occupancy: given(s, 'departureOccupancyStatus') ?? undefined,
    };
  });
  // A trip-level delay with no stop updates applies from the first stop (reference, TripUpdate.delay).
  if (!stops.length && tripDelay !== undefined)
    stops.push({ stopSequence: 0, delay: tripDelay, skipped: false, noData: false });
  return {
    tripId: t.tripId,
    routeId: given(t, 'routeId') || undefined,
    startDate: given(t, 'startDate') || undefined,
    startTime: given(t, 'startTime') || undefined,
    cancelled,
    deleted,
    stops,
    headsign: given(u.tripProperties, 'tripHeadsign') || undefined,
    vehicleId: given(u.vehicle, 'id') || undefined,
  };
}

/** Alerts kept from one feed, and informed_entity selectors of one alert. */
const MAX_ALERTS = 1000;
const MAX_SELECTORS = 256;

export async function decodeAlerts(buf: Uint8Array, sliceMs = 4): Promise<AlertData> {
  const data: AlertData = { alerts: [], skipped: 0, skippedEntities: [] };
  let header = false;
  await walkFields(
    buf,
    (num, bytes) => {
      if (num === 1) {
        rt.FeedHeader.decode(bytes);
        header = true;
        return;
      }
      if (num !== 2 || data.alerts.length >= MAX_ALERTS) return;
      eachEntity(bytes, data, (e) => {
        const alert = alertOf(e);
        if (alert) data.alerts.push(alert);
      });
    },
    sliceMs,
  );
  if (!header) throw new FeedFormatError('not a GTFS-realtime FeedMessage: no header');
  return data;
}

function alertOf(e: GtfsRealtimeBindings.transit_realtime.FeedEntity): FeedAlert | undefined {
  const a = e.alert;
  if (e.isDeleted || !a) return;
  const text = textOf(a.headerText) || textOf(a.descriptionText);
  if (!text) return;
  const spoken = textOf(a.ttsHeaderText) || textOf(a.ttsDescriptionText);
  return {
    id: e.id,
    text,
    ...(spoken ? { spoken } : {}),
    periods: (a.activePeriod ?? []).map((p) => ({
      start: ms(seconds(given(p, 'start') as Num, 'an active period start')),
      end: ms(seconds(given(p, 'end') as Num, 'an active period end')),
    })),
    selectors: (a.informedEntity ?? []).slice(0, MAX_SELECTORS).map(selectorOf),
  };
}

/** An informed_entity; a trip descriptor without trip_id names its route (and direction). */
function selectorOf(i: GtfsRealtimeBindings.transit_realtime.IEntitySelector): AlertSelector {
  const s: AlertSelector = {};
  const text = (v: string | null | undefined) => v || undefined;
  s.agencyId = text(given(i, 'agencyId'));
  s.routeId = text(given(i, 'routeId')) ?? text(given(i.trip, 'routeId'));
  s.routeType = given(i, 'routeType') ?? undefined;
  s.directionId = given(i, 'directionId') ?? given(i.trip, 'directionId') ?? undefined;
  s.tripId = text(given(i.trip, 'tripId'));
  s.stopId = text(given(i, 'stopId'));
  for (const k of Object.keys(s) as Array<keyof AlertSelector>) if (s[k] === undefined) delete s[k];
  return s;
}

const ms = (s: number | undefined) => (s ? s * 1000 : undefined);

/** The untranslated text, else English, else the first translation. */
function textOf(t: GtfsRealtimeBindings.transit_realtime.ITranslatedString | null | undefined): string {
  const list = t?.translation ?? [];
  const pick = list.find((x) => !x.language) ?? list.find((x) => /^en\b/i.test(x.language ?? '')) ?? list[0];
  return (pick?.text ?? '').replace(/\s+/g, ' ').trim();
}
