// What one SIRI call says of a departure (model.ts SiriVisit), from:
//   SIRI-SM MonitoredStopVisit: MonitoringRef (else the delivery's), MonitoredVehicleJourney
//     (LineRef, PublishedLineName, DestinationRef, DestinationName, FramedVehicleJourneyRef or
//     DatedVehicleJourneyRef), MonitoredCall;
//   SIRI-ET EstimatedVehicleJourney: the same journey fields, Cancellation, and each
//     EstimatedCalls/EstimatedCall.
// A call: StopPointRef, Aimed/ExpectedDepartureTime (else ...ArrivalTime), DestinationDisplay,
// Departure/ArrivalPlatformName, Departure/ArrivalStopAssignment (AimedQuayRef/Name,
// ExpectedQuayRef/Name, ActualQuayRef/Name; SIRI 2.1's PlannedStopAssignment and
// ExpectedStopAssignment alike), Cancellation, DepartureStatus, DepartureBoardingActivity.
// Occupancy: siri-occupancy.ts.
// A call no one can board at is no departure: one with arrival times only, DepartureStatus
// noService, DepartureBoardingActivity noBoarding or passThru, or the journey's DestinationRef.
import type { SiriVisit } from './model.js';
import { siriOccupancy } from './siri-occupancy.js';
import { dateTime, isNode, list, text, type Node } from './siri-values.js';

/** How times are read: the zone of times without an offset, and those that could not be read. */
export interface TimeReader {
  zone?: string;
  unread: number;
  example?: string;
}

const isTrue = (v: unknown) => text(v).toLowerCase() === 'true';
const first = (v: unknown): Node => list(v).find(isNode) ?? {};

export function monitoredVisit(visit: Node, deliveryStop: string, times: TimeReader): SiriVisit | undefined {
  const j = first(visit.MonitoredVehicleJourney);
  const call = first(j.MonitoredCall);
  const stop = text(visit.MonitoringRef) || deliveryStop || text(call.StopPointRef);
  return callOf(j, call, stop, text(visit.ItemIdentifier), times);
}

export function estimatedCalls(journey: Node, times: TimeReader): SiriVisit[] {
  const out: SiriVisit[] = [];
  const cancelled = isTrue(journey.Cancellation);
  for (const c of list(first(journey.EstimatedCalls).EstimatedCall).filter(isNode)) {
    const v = callOf(journey, c, text(c.StopPointRef), '', times);
    if (!v) continue;
    if (cancelled) v.cancelled = true;
    out.push(v);
  }
  return out;
}

function callOf(j: Node, call: Node, stop: string, item: string, times: TimeReader): SiriVisit | undefined {
  const time = (...names: string[]) => {
    for (const n of names) {
      if (!text(call[n])) continue;
      const t = dateTime(call[n], times.zone);
      if (t !== undefined) return t;
      if (!times.unread++) times.example = `${n} "${text(call[n]).slice(0, 40)}"`;
    }
    return undefined;
  };
  const quay = stopAssignment(call);
  const alias = [text(call.StopPointRef), quay.ref].filter((s) => s && s !== stop);
  if (!departs(j, call, [stop, ...alias])) return undefined;
  const framed = first(j.FramedVehicleJourneyRef);
  const journey = journeyRef(j) || item;
  const aimed = time('AimedDepartureTime', 'AimedArrivalTime');
  const route = text(j.PublishedLineName) || text(j.LineRef);
  const platform = quay.name || text(call.DeparturePlatformName) || text(call.ArrivalPlatformName);
  const occupancy = siriOccupancy(j, call);
  return {
    key: `${journey || `${route}@${aimed ?? ''}`}/${text(framed.DataFrameRef)}/${stop}`,
    stop,
    ...(alias.length ? { alias } : {}),
    route,
    line: text(j.LineRef),
    journey,
    destination: text(call.DestinationDisplay) || text(j.DestinationName) || text(j.DestinationRef),
    platform,
    ...(quay.changed(platform) ? { platformChanged: true } : {}),
    aimed,
    expected: time('ExpectedDepartureTime', 'ExpectedArrivalTime'),
    cancelled: isTrue(call.Cancellation) || text(call.DepartureStatus).toLowerCase() === 'cancelled',
    ...(occupancy ? { occupancy } : {}),
  };
}

/** A journey's id: FramedVehicleJourneyRef's DatedVehicleJourneyRef, else its own, else VehicleJourneyRef. */
export function journeyRef(j: Node): string {
  return (
    text(first(j.FramedVehicleJourneyRef).DatedVehicleJourneyRef) ||
    text(j.DatedVehicleJourneyRef) ||
    text(j.VehicleJourneyRef)
  );
}

/** Whether a passenger can board here: not an arrival only, a pass through, or the journey's end. */
function departs(j: Node, call: Node, stops: string[]): boolean {
  const departure = !!(text(call.AimedDepartureTime) || text(call.ExpectedDepartureTime));
  const arrival = !!(text(call.AimedArrivalTime) || text(call.ExpectedArrivalTime));
  if (arrival && !departure) return false;
  if (text(call.DepartureStatus).toLowerCase() === 'noservice') return false;
  const boarding = text(call.DepartureBoardingActivity).toLowerCase();
  if (boarding === 'noboarding' || boarding === 'passthru') return false;
  const end = text(j.DestinationRef);
  return !end || !stops.includes(end);
}

/**
 * The quay the call is assigned to now and whether that is another than planned: the expected
 * (or actual) quay against the aimed one, by ref or by name; a platform name against the aimed
 * quay's name.
 */
function stopAssignment(call: Node): { ref: string; name: string; changed(platform: string): boolean } {
  const a = first(call.DepartureStopAssignment ?? call.ArrivalStopAssignment);
  const planned = first(call.PlannedStopAssignment);
  const expected = first(call.ExpectedStopAssignment);
  const aimedRef = text(a.AimedQuayRef) || text(planned.AimedQuayRef) || text(planned.QuayRef);
  const aimedName = text(a.AimedQuayName) || text(planned.AimedQuayName) || text(planned.QuayName);
  const ref =
    text(a.ActualQuayRef) ||
    text(a.ExpectedQuayRef) ||
    text(expected.ActualQuayRef) ||
    text(expected.ExpectedQuayRef) ||
    text(expected.QuayRef);
  const name =
    text(a.ActualQuayName) || text(a.ExpectedQuayName) || text(expected.ExpectedQuayName) || text(expected.QuayName);
  const differ = (x: string, y: string) => !!x && !!y && x !== y;
  return {
    ref,
    name,
    changed: (platform) => differ(aimedRef, ref) || differ(aimedName, platform),
  };
}
