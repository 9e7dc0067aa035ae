// One CAP 1.2 <alert> as the alerts capability uses it (the elements cap-xml.ts lists), read
// from fast-xml-parser's object within bounds: 50 <area>s per <info>, 10,000 points per
// <polygon> (counted in the text before it is split), text fields cut at 4 KiB.
import { arr, decodeXmlText, isObj, textOf } from './xml-text.js';

/** Alerts read from one feed, in place or linked. */
export const MAX_ALERTS = 100;
export const MAX_AREAS = 50;
export const MAX_POINTS = 10_000;
const MAX_INFOS = 20;
const MAX_TEXT = 4096;
const MAX_GEOCODES = 100;

export type LatLon = [number, number];

export interface CapArea {
  areaDesc: string;
  polygons: LatLon[][];
  /** Centre and radius in km. */
  circles: Array<{ centre: LatLon; radiusKm: number }>;
  geocodes: Array<{ valueName: string; value: string }>;
}

export interface CapInfo {
  language: string;
  event: string;
  urgency: string;
  severity: string;
  certainty: string;
  effective?: string;
  onset?: string;
  expires?: string;
  senderName?: string;
  headline: string;
  description: string;
  instruction: string;
  areas: CapArea[];
}

export interface CapAlert {
  identifier: string;
  sender: string;
  sent: string;
  status: string;
  msgType: string;
  /** "sender,identifier,sent" triples. */
  references: string[];
  infos: CapInfo[];
}

export class CapLimitError extends Error {}

const field = (o: Record<string, unknown>, name: string): string | undefined => {
  const t = textOf(arr(o[name])[0]);
  return t === undefined ? undefined : decodeXmlText(t).slice(0, MAX_TEXT);
};

export function readAlert(a: Record<string, unknown>): CapAlert {
  const identifier = field(a, 'identifier');
  const sender = field(a, 'sender');
  const sent = field(a, 'sent');
  if (!identifier || !sender || !sent)
    throw new CapLimitError('lacks identifier, sender or sent (all three are required)');
  const infos = arr(a.info).filter(isObj);
  if (infos.length > MAX_INFOS)
    throw new CapLimitError(`has ${infos.length} <info> blocks; at most ${MAX_INFOS} are read`);
  return {
    identifier,
    sender,
    sent,
    status: field(a, 'status') ?? '',
    msgType: field(a, 'msgType') ?? 'Alert',
    references: (field(a, 'references') ?? '').split(/\s+/).filter(Boolean).slice(0, 100),
    infos: infos.map(readInfo),
  };
}

function readInfo(i: Record<string, unknown>): CapInfo {
  const areas = arr(i.area).filter(isObj);
  if (areas.length > MAX_AREAS)
    throw new CapLimitError(`has an <info> with ${areas.length} areas; at most ${MAX_AREAS} are accepted`);
  return {
    language: field(i, 'language') ?? 'en-US',
    event: field(i, 'event') ?? '',
    urgency: field(i, 'urgency') ?? '',
    severity: field(i, 'severity') ?? '',
    certainty: field(i, 'certainty') ?? '',
    effective: field(i, 'effective'),
    onset: field(i, 'onset'),
    expires: field(i, 'expires'),
    senderName: field(i, 'senderName'),
    headline: field(i, 'headline') ?? '',
    description: field(i, 'description') ?? '',
    instruction: field(i, 'instruction') ?? '',
    areas: areas.map(readArea),
  };
}

function readArea(a: Record<string, unknown>): CapArea {
  const polygons = arr(a.polygon)
    .slice(0, MAX_AREAS)
    .map((p) => polygonOf(textOf(p) ?? ''));
  const circles = arr(a.circle)
    .slice(0, MAX_AREAS)
    .map((c) => circleOf(textOf(c) ?? ''));
  const geocodes = arr(a.geocode)
    .filter(isObj)
    .slice(0, MAX_GEOCODES)
    .map((g) => ({ valueName: field(g, 'valueName') ?? '', value: field(g, 'value') ?? '' }));
  return { areaDesc: field(a, 'areaDesc') ?? '', polygons, circles, geocodes };
}

/** "lat,lon lat,lon ...": the points are counted before any array is built. */
export function polygonOf(text: string): LatLon[] {
  if (countPoints(text, 0, text.length) > MAX_POINTS)
    throw new CapLimitError(`has a polygon of more than ${MAX_POINTS} points`);
  const pts = text.trim().split(/\s+/).map(pointOf);
  if (pts.length < 4 || pts.some((p) => p === undefined))
    throw new CapLimitError('has a polygon that is not at least 4 "lat,lon" pairs');
  return pts as LatLon[];
}

/** The whitespace-separated points of text[from, to), counting stopped past MAX_POINTS. */
export function countPoints(text: string, from: number, to: number): number {
  let points = 0;
  let inPoint = false;
  for (let k = from; k < to && points <= MAX_POINTS; k++) {
    const c = text.charCodeAt(k);
    const space = c === 32 || c === 9 || c === 10 || c === 13;
    if (!space && !inPoint) points++;
    inPoint = !space;
  }
  return points;
}

/** "lat,lon radius": the radius in kilometres. */
export function circleOf(text: string): { centre: LatLon; radiusKm: number } {
  const [c, r] = text.trim().split(/\s+/, 3);
  const centre = pointOf(c ?? '');
  const radiusKm = Number(r);
  if (!centre || !Number.isFinite(radiusKm) || radiusKm < 0)
    throw new CapLimitError(`has a circle "${text.slice(0, 60)}" that is not "lat,lon radius"`);
  return { centre, radiusKm };
}

function pointOf(s: string): LatLon | undefined {
  const [a, b, extra] = s.split(',');
  const lat = Number(a);
  const lon = Number(b);
  if (
    extra !== undefined ||
    a === '' ||
    b === undefined ||
    b === '' ||
    !(Math.abs(lat) <= 90) ||
    !(Math.abs(lon) <= 180)
  )
    return undefined;
  return [lat, lon];
}
