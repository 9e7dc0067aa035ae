// SIRI-SX situations (SituationExchangeDelivery/Situations/PtSituationElement) as feed alerts:
// SituationNumber, ValidityPeriod (StartTime, EndTime), Summary (else Description), Progress
// (closed ones are left out), Affects: StopPoints/AffectedStopPoint/StopPointRef and
// Networks/AffectedNetwork/AffectedLine/LineRef, read at any depth under Affects.
import type { FeedAlert } from './model.js';
import { parseDocument } from './siri.js';
import { all, dateTime, text } from './siri-values.js';

const MAX_ALERTS = 1000;

export function parseSiriSx(body: Buffer): FeedAlert[] {
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
      stops: all(s.Affects, 'AffectedStopPoint').map((p) => text(p.StopPointRef)).filter(Boolean),
      routes: all(s.Affects, 'AffectedLine').map((l) => text(l.LineRef)).filter(Boolean),
    });
  }
  return alerts;
}
