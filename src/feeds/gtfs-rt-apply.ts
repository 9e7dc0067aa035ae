// A scheduled call with the trip's GTFS-realtime update applied, as the reference says
// (https://gtfs.org/realtime/reference, StopTimeUpdate): the stop's own update (its time, else
// its delay) when there is one; else the delay of the nearest earlier update is propagated
// (computed against that stop's scheduled time when it gives only a time); an earlier
// NO_DATA stops propagation (the schedule stands, not live); SKIPPED at the stop and a
// CANCELED trip make the call cancelled. Departure wins over arrival in each update.
import type { StopRt, TripRt } from './model.js';
import { gtfsSeconds, scheduledAt, type ScheduledCall } from './schedule.js';

export interface Prediction {
  time: number;
  live: boolean;
  cancelled: boolean;
  /** The stop the call now departs from when its own update assigns one (assigned_stop_id). */
  stopId?: string;
  /** The call's own update, when the trip's update has one for its stop. */
  own?: StopRt;
}

/**
 * The update of `trips` (or a VehiclePosition of them) for this call's run: its start_date, or without one
 * the run of `current` (the one nearest now); a frequency-based run's also by its start_time, without which
 * it has none.
 */
export function runOf<T extends Pick<TripRt, 'startDate' | 'startTime'>>(
  trips: T[] | undefined,
  call: ScheduledCall,
  current: string | undefined,
): T | undefined {
  return trips?.find(
    (t) =>
      (t.startDate === undefined ? call.date === current : t.startDate === call.date) &&
      (call.start === undefined || (t.startTime !== undefined && gtfsSeconds(t.startTime) === call.start)),
  );
}

export function predict(call: ScheduledCall, trip: TripRt | undefined): Prediction {
  const scheduled: Prediction = { time: call.time, live: false, cancelled: false };
  if (!trip) return scheduled;
  if (trip.cancelled) return { time: call.time, live: true, cancelled: true };
  const stops = call.trip.stops;
  const seqOf = (u: StopRt) => u.stopSequence ?? stops.find((s) => s.stopId === u.stopId)?.seq;
  let best: StopRt | undefined;
  let bestSeq = -Infinity;
  for (const u of trip.stops) {
    const seq = seqOf(u);
    if (seq === undefined || seq > call.stop.seq || seq < bestSeq) continue;
    // An earlier SKIPPED stop carries no time: the delay comes from before it.
    if (u.skipped && seq !== call.stop.seq) continue;
    best = u;
    bestSeq = seq;
  }
  if (!best) return scheduled;
  const own = bestSeq === call.stop.seq;
  if (!own) return predictTime(call, best, bestSeq, own);
  return {
    ...predictTime(call, best, bestSeq, own),
    own: best,
    ...(best.assignedStopId !== undefined ? { stopId: best.assignedStopId } : {}),
  };
}

function predictTime(call: ScheduledCall, best: StopRt, bestSeq: number, own: boolean): Prediction {
  const scheduled: Prediction = { time: call.time, live: false, cancelled: false };
  const stops = call.trip.stops;
  if (best.noData) return scheduled;
  if (own && best.skipped) return { time: call.time, live: true, cancelled: true };
  if (own && best.time !== undefined) return { time: best.time, live: true, cancelled: false };
  let delay = best.delay;
  if (delay === undefined && best.time !== undefined) {
    const at = stops.find((s) => s.seq === bestSeq);
    if (at && Number.isFinite(at.sec)) delay = (best.time - scheduledAt(call, at)) / 1000;
  }
  if (delay === undefined) return scheduled;
  return { time: call.time + delay * 1000, live: true, cancelled: false };
}
