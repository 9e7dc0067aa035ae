// departures areas: a board of the next departures at some stops, drawn from a feed (the
// unit's BoardSource); like a clock they take no request value (docs/decisions.md).
import { DEFAULTS } from '../defaults.js';
import { parseIntLike } from '../scalars.js';
import type { DepartureField, DeparturesConfig } from '../types.js';
import { MldsError } from '../../errors.js';
import { isZoneName } from '../../time/zone-name.js';
import type { AreaKind, AreaRules } from './area-type.js';
import { signTextLook } from './text-look.js';

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const text = (v: unknown, dflt: string): string => (typeof v === 'string' ? v : dflt);

/** Board texts hold no tab or line feed: each is one cell of one row. */
function oneCell(r: AreaRules, key: string): void {
  const v = r.raw[key];
  if (typeof v === 'string' && /[\t\n\r]/.test(v)) r.fault(`/${key}`, 'must be one line without tabs (it fills one cell)');
}

function board(r: AreaRules): DeparturesConfig | undefined {
  const d = DEFAULTS.departures;
  if (typeof r.raw.feed !== 'string') r.fault('', 'a departures area needs "feed", the id of a feed in "feeds"');
  if (!Array.isArray(r.raw.stops)) r.fault('', 'a departures area needs "stops", the stop ids (or SIRI MonitoringRefs) it shows');
  if (!Array.isArray(r.raw.columns)) r.fault('', 'a departures area needs "columns", each with a field and a width');
  const zone = r.raw.timezone;
  if (typeof zone === 'string' && !isZoneName(zone)) r.fault('/timezone', `"${zone}" is not an IANA time zone name such as America/New_York`);
  for (const k of ['nowText', 'minutesText', 'scheduledMark', 'cancelledText', 'noDataText', 'noDeparturesText']) oneCell(r, k);
  const columns = Array.isArray(r.raw.columns) ? (r.raw.columns as Array<Record<string, unknown>>) : [];
  return {
    feed: text(r.raw.feed, ''),
    stops: strings(r.raw.stops) ?? [],
    rows: parseIntLike(r.raw.rows),
    routes: strings(r.raw.routes),
    fields: columns.map((c) => (c.field ?? 'destination') as DepartureField),
    nowText: text(r.raw.nowText, d.nowText),
    minutesText: text(r.raw.minutesText, d.minutesText),
    scheduledMark: text(r.raw.scheduledMark, d.scheduledMark),
    cancelledText: text(r.raw.cancelledText, d.cancelledText),
    noDataText: text(r.raw.noDataText, d.noDataText),
    noDeparturesText: text(r.raw.noDeparturesText, d.noDeparturesText),
    timezone: typeof zone === 'string' && isZoneName(zone) ? zone : undefined,
    staleAfter: parseIntLike(r.raw.staleAfter) ?? d.staleAfter,
    announceAt: parseIntLike(r.raw.announceAt),
    announceText: text(r.raw.announceText, d.announceText),
    alertArea: typeof r.raw.alertArea === 'string' ? r.raw.alertArea : undefined,
    alertPriority: parseIntLike(r.raw.alertPriority) ?? d.alertPriority,
  };
}

export const departures: AreaKind = {
  type: 'departures',
  keyed: false,
  configure: (r) => ({ ...signTextLook(r), departures: board(r) }),
  resolve(area) {
    throw new MldsError('MLDS_BAD_VALUE', `"${area.id}" is a departures area: it shows its feed's departures and takes no value (send "${area.id}=" to clear it)`, area.id);
  },
  // The board shows whenever the area has not been cleared.
  fallback: () => ({}),
};
