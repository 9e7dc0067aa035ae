// departures areas: a board of the next departures at some stops, drawn from a feed (the
// unit's BoardSource); like a clock they take no request value (docs/decisions.md).
import { DEFAULTS } from '../defaults.js';
import { parseIntLike } from '../scalars.js';
import type { BoardArea } from '../feed-types.js';
import { MldsError } from '../../errors.js';
import { isZoneName } from '../../time/zone-name.js';
import type { AreaKind, AreaRules } from './area-type.js';
import type { AreaOf, DepartureField, DeparturesConfig } from './normalized-area.js';
import { signTextLook } from './text-look.js';

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
const text = (v: unknown, dflt: string): string => (typeof v === 'string' ? v : dflt);

/** Board texts hold no tab or line feed: each is one cell of one row. */
function oneCell(r: AreaRules, key: string): void {
  const v = r.raw[key];
  if (typeof v === 'string' && /[\t\n\r]/.test(v))
    r.fault(`/${key}`, 'must be one line without tabs (it fills one cell)');
}

/** The area's own occupancy texts, each one cell. */
function occupancyTexts(r: AreaRules): Record<string, string> {
  const o = r.raw.occupancyTexts;
  if (o === null || typeof o !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
    if (typeof v !== 'string') continue;
    if (/[\t\n\r]/.test(v)) r.fault(`/occupancyTexts/${k}`, 'must be one line without tabs (it fills one cell)');
    out[k] = v;
  }
  return out;
}

function board(r: AreaRules): DeparturesConfig {
  const d = DEFAULTS.departures;
  if (typeof r.raw.feed !== 'string') r.fault('', 'a departures area needs "feed", the id of a feed in "feeds"');
  if (!Array.isArray(r.raw.stops))
    r.fault('', 'a departures area needs "stops", the stop ids (or SIRI MonitoringRefs) it shows');
  if (!Array.isArray(r.raw.columns)) r.fault('', 'a departures area needs "columns", each with a field and a width');
  const zone = r.raw.timezone;
  if (typeof zone === 'string' && !isZoneName(zone))
    r.fault('/timezone', `"${zone}" is not an IANA time zone name such as America/New_York`);
  for (const k of [
    'nowText',
    'minutesText',
    'scheduledMark',
    'cancelledText',
    'noDataText',
    'noDeparturesText',
    'platformChangedMark',
    'accessibleText',
  ])
    oneCell(r, k);
  const columns = Array.isArray(r.raw.columns) ? (r.raw.columns as Array<Record<string, unknown>>) : [];
  const f =
    r.raw.filters !== null && typeof r.raw.filters === 'object' ? (r.raw.filters as Record<string, unknown>) : {};
  if (r.raw.routes !== undefined && f.routes !== undefined)
    r.fault('/routes', 'is the same as filters.routes: give one of them');
  const directions = Array.isArray(f.directions)
    ? f.directions.map(parseIntLike).filter((x): x is number => x === 0 || x === 1)
    : undefined;
  const headsigns = strings(f.headsigns);
  return {
    feed: text(r.raw.feed, ''),
    stops: strings(r.raw.stops) ?? [],
    rows: parseIntLike(r.raw.rows),
    routes: strings(f.routes) ?? strings(r.raw.routes),
    filters: directions?.length || headsigns?.length ? { directions, headsigns } : undefined,
    walkMinutes: parseIntLike(r.raw.walkMinutes),
    groupBy: r.raw.groupBy === 'platform' ? 'platform' : undefined,
    platformChangedMark: text(r.raw.platformChangedMark, d.platformChangedMark),
    accessibleText: text(r.raw.accessibleText, d.accessibleText),
    occupancyTexts: { ...d.occupancyTexts, ...occupancyTexts(r) },
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

export const departures: AreaKind<AreaOf<'departures'>> = {
  type: 'departures',
  keyed: false,
  spoken: 'board',
  configure(r) {
    // A board is laid out as sign text is, without what only a free text takes.
    const { wrap: _w, graphics: _g, markup: _m, scrollDirection: _d, speak: _s, ...look } = signTextLook(r, true);
    return { ...r.base, ...look, departures: board(r) };
  },
  resolve(area) {
    throw new MldsError(
      'MLDS_BAD_VALUE',
      `"${area.id}" is a departures area: it shows its feed's departures and takes no value (send "${area.id}=" ` +
        `to clear it)`,
      area.id,
    );
  },
  // The board shows whenever the area has not been cleared.
  fallback: () => ({}),
};

/** What a board of the file says: BoardArea without where it stands. */
type RawBoard = Omit<BoardArea, 'display' | 'layout' | 'area' | 'areas'>;

/**
 * A departures area of the file as the feeds section reads it (config/feeds.ts), before any
 * area is normalized: read defensively from a file that may have schema faults. Undefined: the
 * area is no board, or names no feed.
 */
export function rawBoard(a: Record<string, unknown>): RawBoard | undefined {
  if (a.type !== 'departures' || typeof a.feed !== 'string') return undefined;
  const d = DEFAULTS.departures;
  return {
    feed: a.feed,
    stops: strings(a.stops) ?? [],
    routes: strings((a.filters as Record<string, unknown> | undefined)?.routes) ?? strings(a.routes),
    alertArea: typeof a.alertArea === 'string' ? a.alertArea : undefined,
    alertPriority: parseIntLike(a.alertPriority) ?? d.alertPriority,
    announceAt: parseIntLike(a.announceAt),
    announceText: text(a.announceText, d.announceText),
    staleAfter: parseIntLike(a.staleAfter) ?? d.staleAfter,
  };
}
