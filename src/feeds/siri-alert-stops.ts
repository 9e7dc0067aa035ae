// Where a SIRI-SX situation (siri-alerts.ts) is shown, in the terms the boards' alert matching
// knows (alerts.ts: a stop or a line): kept apart from the parser so the main thread, which
// runs this at each alert check, never loads the XML reader.
import type { FeedAlert, SiriVisit } from './model.js';

/**
 * The situations as the boards match them (by stop or line): one for the whole network names
 * every board stop of the feed, one for journeys the stops those journeys depart from now.
 */
export function siriAlertsAt(
  alerts: readonly FeedAlert[], visits: readonly SiriVisit[], boardStops: readonly string[],
): FeedAlert[] {
  return alerts.map((a) => {
    if (!a.network && !a.journeys?.length) return a;
    const stops = new Set(a.stops);
    if (a.network) for (const s of boardStops) stops.add(s);
    if (a.journeys?.length) {
      const wanted = new Set(a.journeys);
      for (const v of visits) if (wanted.has(v.journey)) for (const s of [v.stop, ...(v.alias ?? [])]) stops.add(s);
    }
    return { ...a, stops: [...stops] };
  });
}
