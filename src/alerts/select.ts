// Which alerts of a feed are in force on this unit, and why each other one is not: the rules
// of docs/alerts.md ("Which alerts show" and "Lifecycle"), apart from fetching and showing.
import type { AlertFeedConfig, GeocodeConfig } from '../config/alert-speech-types.js';
import type { CapAlert, CapInfo, LatLon } from './cap-alert.js';
import { areaHolds } from './geo.js';

/** sender, identifier and sent: what CAP names an alert by (and `references` uses). */
export const alertKey = (a: { sender: string; identifier: string; sent: string }): string =>
  `${a.sender},${a.identifier},${a.sent}`;

export type NotShownReason =
  | 'not Actual'
  | 'outside the area'
  | 'expired'
  | 'superseded'
  | 'cancelled'
  | 'not yet in effect'
  | 'no info'
  | 'a cancellation'
  | 'duplicate';

export interface Chosen {
  alert: CapAlert;
  info: CapInfo;
  key: string;
  from: number;
  expiresAt?: number;
}
export interface Passed {
  alert: CapAlert;
  key: string;
  reason: NotShownReason;
}

export interface Selection {
  inForce: Chosen[];
  notShown: Passed[];
  /** Keys that Updates and Cancels in this fetch ended, with how. */
  ended: Map<string, 'superseded' | 'cancelled'>;
}

export interface Unit {
  position?: LatLon;
  geocodes: GeocodeConfig[];
}

/** The info in the first of `languages` the alert has (a prefix like "en" matches "en-US"), else its first. */
export function infoFor(alert: CapAlert, languages: string[]): CapInfo | undefined {
  for (const want of languages) {
    const w = want.toLowerCase();
    const hit =
      alert.infos.find((i) => i.language.toLowerCase() === w) ??
      alert.infos.find((i) => i.language.toLowerCase().startsWith(`${w}-`));
    if (hit) return hit;
  }
  return alert.infos[0];
}

/**
 * The last instant a CAP time can name (an xs:dateTime of four-digit years): a later one, such
 * as `+275760-09-13T00:00:00Z`, is read as this one, and an earlier one than 1970 as 1970, so
 * every time in force can be shown in any zone.
 */
export const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59);

export const capTime = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? Math.min(Math.max(t, 0), LATEST_TIME) : undefined;
};

export function select(
  alerts: CapAlert[],
  entry: AlertFeedConfig,
  unit: Unit,
  endedBefore: ReadonlyMap<string, 'superseded' | 'cancelled'>,
  now: number,
): Selection {
  const ended = new Map<string, 'superseded' | 'cancelled'>();
  for (const a of alerts) {
    if (a.msgType !== 'Update' && a.msgType !== 'Cancel') continue;
    for (const ref of a.references) ended.set(ref, a.msgType === 'Cancel' ? 'cancelled' : 'superseded');
  }
  const seen = new Set<string>();
  const inForce: Chosen[] = [];
  const notShown: Passed[] = [];
  for (const alert of alerts) {
    const key = alertKey(alert);
    const pass = (reason: NotShownReason) => notShown.push({ alert, key, reason });
    if (seen.has(key)) {
      pass('duplicate');
      continue;
    }
    seen.add(key);
    const end = ended.get(key) ?? endedBefore.get(key);
    if (end) {
      pass(end);
      continue;
    }
    if (alert.msgType === 'Cancel') {
      pass('a cancellation');
      continue;
    }
    if (!(alert.status === 'Actual' || (entry.test && (alert.status === 'Exercise' || alert.status === 'Test')))) {
      pass('not Actual');
      continue;
    }
    const info = infoFor(alert, entry.languages);
    if (!info) {
      pass('no info');
      continue;
    }
    if (info.areas.length && !info.areas.some((a) => areaHolds(a, unit.position, unit.geocodes))) {
      pass('outside the area');
      continue;
    }
    const expiresAt = capTime(info.expires);
    if (expiresAt !== undefined && expiresAt <= now) {
      pass('expired');
      continue;
    }
    const from = capTime(info.effective) ?? capTime(info.onset) ?? capTime(alert.sent) ?? now;
    if (from > now) {
      pass('not yet in effect');
      continue;
    }
    inForce.push({ alert, info, key, from, expiresAt });
  }
  return { inForce, notShown, ended };
}

const SEVERITY = ['Extreme', 'Severe', 'Moderate', 'Minor'];

/** The alert a display shows when several are in force at one priority: the most severe, then the newest. */
export function rank(a: { severity: string; sent: string }, b: { severity: string; sent: string }): number {
  const s = (x: string) => {
    const i = SEVERITY.indexOf(x);
    return i < 0 ? SEVERITY.length : i;
  };
  return s(a.severity) - s(b.severity) || (Date.parse(b.sent) || 0) - (Date.parse(a.sent) || 0);
}
