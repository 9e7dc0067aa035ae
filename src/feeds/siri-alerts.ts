// SIRI-SX situations (SituationExchangeDelivery/Situations/PtSituationElement) as feed alerts:
// SituationNumber, ValidityPeriod (StartTime, EndTime), Summary (else Description), Progress
// (closed ones are left out), and what they affect (Affects), as the selectors GTFS-realtime
// alerts have (alert-scope.ts decides both):
//   StopPoints/AffectedStopPoint/StopPointRef, StopPlaces/AffectedStopPlace/StopPlaceRef: {stopId};
//   Networks/AffectedNetwork/AffectedLine/LineRef: {routeId}; an AffectedNetwork with AllLines,
//     or naming no line: {network} (every board of the feed);
//   VehicleJourneys/AffectedVehicleJourney (FramedVehicleJourneyRef/DatedVehicleJourneyRef,
//     DatedVehicleJourneyRef, VehicleJourneyRef): {tripId}, the boards the journey departs from.
// A stop or line named only inside an affected journey narrows that journey; it is not read as
// affected on its own.
import type { AlertData, AlertSelector, FeedAlert } from './model.js';
import { parseDocument } from './siri.js';
import { all, dateTime, isNode, list, text, type Node } from './siri-values.js';
import { journeyRef } from './siri-calls.js';

const MAX_ALERTS = 1000;
const MAX_REFS = 1000;

const first = (v: unknown): Node => list(v).find(isNode) ?? {};
const refs = (nodes: Node[], read: (n: Node) => string) =>
  [...new Set(nodes.map(read).filter(Boolean))].slice(0, MAX_REFS);

export function parseSiriSx(body: Buffer): AlertData {
  const siri = parseDocument(body);
  const alerts: FeedAlert[] = [];
  for (const s of all(siri, 'PtSituationElement')) {
    if (alerts.length >= MAX_ALERTS) break;
    if (text(s.Progress).toLowerCase() === 'closed') continue;
    const t = text(s.Summary) || text(s.Description);
    if (!t) continue;
    alerts.push({
      id: text(s.SituationNumber) || t,
      text: t.replace(/\s+/g, ' '),
      periods: all(s, 'ValidityPeriod').map((p) => ({ start: dateTime(p.StartTime), end: dateTime(p.EndTime) })),
      selectors: selectorsOf(first(s.Affects)),
    });
  }
  return { alerts, skipped: 0, skippedEntities: [] };
}

function selectorsOf(affects: Node): AlertSelector[] {
  const networks = all(affects.Networks, 'AffectedNetwork');
  const stops = [
    ...refs(all(affects.StopPoints, 'AffectedStopPoint'), (p) => text(p.StopPointRef)),
    ...refs(all(affects.StopPlaces, 'AffectedStopPlace'), (p) => text(p.StopPlaceRef)),
  ];
  const wholeNetwork = networks.some((n) => n.AllLines !== undefined || !all(n, 'AffectedLine').length);
  return [
    ...(wholeNetwork ? [{ network: true as const }] : []),
    ...stops.map((stopId) => ({ stopId })),
    ...refs(all(networks, 'AffectedLine'), (l) => text(l.LineRef)).map((routeId) => ({ routeId })),
    ...refs(all(affects.VehicleJourneys, 'AffectedVehicleJourney'), journeyRef).map((tripId) => ({ tripId })),
  ];
}
