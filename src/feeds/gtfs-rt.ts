// GTFS-realtime TripUpdates and Alerts (https://gtfs.org/realtime/reference), decoded with
// MobilityData's gtfs-realtime-bindings one FeedEntity at a time (proto-walk.ts). Times in the
// feed are POSIX seconds (uint64); a value that can only be milliseconds is refused rather
// than shown thirty thousand years late.
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { FeedAlert, RtData, StopRt, TripRt } from './model.js';
import { FeedFormatError, walkFields } from './proto-walk.js';

const rt = GtfsRealtimeBindings.transit_realtime;
type Long = { toNumber(): number };
type Num = number | Long | null | undefined;

/** Above this a "seconds" value is a millisecond clock (it would be after the year 5000). */
const MAX_SECONDS = 1e11;

function seconds(v: Num, what: string): number | undefined {
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

/** Which trips to keep: those the schedule kept, and any trip that names one of the boards' stops. */
export interface RtFilter { trips: ReadonlySet<string>; stops: ReadonlySet<string> }

export async function decodeTripUpdates(buf: Uint8Array, filter: RtFilter, sliceMs = 4): Promise<RtData> {
  const data: RtData = { timestamp: 0, trips: new Map() };
  let header = false;
  await walkFields(buf, (num, bytes) => {
    if (num === 1) {
      const h = rt.FeedHeader.decode(bytes);
      if (!h.gtfsRealtimeVersion) throw new FeedFormatError('the header has no gtfs_realtime_version');
      data.timestamp = (seconds(h.timestamp as Num, 'the header timestamp') ?? 0) * 1000;
      header = true;
    } else if (num === 2) {
      const e = rt.FeedEntity.decode(bytes);
      if (e.isDeleted || !e.tripUpdate) return;
      const trip = tripOf(e.tripUpdate);
      if (!trip || !(filter.trips.has(trip.tripId) || trip.stops.some((s) => s.stopId !== undefined && filter.stops.has(s.stopId)))) return;
      const list = data.trips.get(trip.tripId);
      if (list) { if (list.length < RUNS_PER_TRIP) list.push(trip); } else if (data.trips.size < MAX_TRIP_UPDATES) data.trips.set(trip.tripId, [trip]);
    }
  }, sliceMs);
  if (!header) throw new FeedFormatError('not a GTFS-realtime FeedMessage: no header');
  return data;
}

/**
 * A field the message carries: decoded messages answer a default (0, "") for a field that was
 * not sent, and a stop_sequence or delay of 0 is not the same as none.
 */
function given<T extends object, K extends keyof T>(m: T | null | undefined, key: K): T[K] | undefined {
  return m && Object.prototype.hasOwnProperty.call(m, key) && m[key] !== null ? m[key] : undefined;
}

function tripOf(u: GtfsRealtimeBindings.transit_realtime.ITripUpdate): TripRt | undefined {
  const t = u.trip;
  if (!t?.tripId) return undefined;
  const SR = rt.TripDescriptor.ScheduleRelationship;
  const cancelled = t.scheduleRelationship === SR.CANCELED || t.scheduleRelationship === SR.DELETED;
  const tripDelay = given(u, 'delay') ?? undefined;
  const stops: StopRt[] = (u.stopTimeUpdate ?? []).map((s) => {
    // Departure wins over arrival, for the time and the delay alike.
    const dep = given(s, 'departure') ?? undefined;
    const arr = given(s, 'arrival') ?? undefined;
    const time = seconds(given(dep, 'time') as Num, 'a departure time') ?? seconds(given(arr, 'time') as Num, 'an arrival time');
    const rel = s.scheduleRelationship ?? 0;
    return {
      stopSequence: given(s, 'stopSequence') ?? undefined,
      stopId: given(s, 'stopId') || undefined,
      time: time === undefined ? undefined : time * 1000,
      delay: (given(dep, 'delay') ?? given(arr, 'delay')) ?? undefined,
      skipped: rel === rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED,
      noData: rel === rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.NO_DATA,
    };
  });
  // A trip-level delay with no stop updates applies from the first stop (reference, TripUpdate.delay).
  if (!stops.length && tripDelay !== undefined) stops.push({ stopSequence: 0, delay: tripDelay, skipped: false, noData: false });
  return { tripId: t.tripId, routeId: given(t, 'routeId') || undefined, startDate: given(t, 'startDate') || undefined,
    startTime: given(t, 'startTime') || undefined, cancelled, stops };
}

export async function decodeAlerts(buf: Uint8Array, sliceMs = 4): Promise<FeedAlert[]> {
  const alerts: FeedAlert[] = [];
  let header = false;
  await walkFields(buf, (num, bytes) => {
    if (num === 1) { rt.FeedHeader.decode(bytes); header = true; return; }
    if (num !== 2 || alerts.length >= 1000) return;
    const e = rt.FeedEntity.decode(bytes);
    const a = e.alert;
    if (e.isDeleted || !a) return;
    const text = textOf(a.headerText) || textOf(a.descriptionText);
    if (!text) return;
    const spoken = textOf(a.ttsHeaderText) || textOf(a.ttsDescriptionText);
    alerts.push({
      id: e.id,
      text,
      ...(spoken ? { spoken } : {}),
      periods: (a.activePeriod ?? []).map((p) => ({ start: ms(seconds(given(p, 'start') as Num, 'an active period start')), end: ms(seconds(given(p, 'end') as Num, 'an active period end')) })),
      stops: (a.informedEntity ?? []).map((i) => given(i, 'stopId')).filter((s): s is string => !!s),
      routes: (a.informedEntity ?? []).map((i) => given(i, 'routeId') || given(i.trip, 'routeId')).filter((s): s is string => !!s),
    });
  }, sliceMs);
  if (!header) throw new FeedFormatError('not a GTFS-realtime FeedMessage: no header');
  return alerts;
}

const ms = (s: number | undefined) => (s ? s * 1000 : undefined);


/** The untranslated text, else English, else the first translation. */
function textOf(t: GtfsRealtimeBindings.transit_realtime.ITranslatedString | null | undefined): string {
  const list = t?.translation ?? [];
  const pick = list.find((x) => !x.language) ?? list.find((x) => /^en\b/i.test(x.language ?? '')) ?? list[0];
  return (pick?.text ?? '').replace(/\s+/g, ' ').trim();
}
