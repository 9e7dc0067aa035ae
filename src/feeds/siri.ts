// SIRI (CEN/TS 15531, the XML the siri.org.uk schema defines), read with fast-xml-parser with
// entities off and any DOCTYPE or ENTITY refused before parsing (no entity expansion, no
// external fetch). Namespace prefixes are dropped, so `siri:MonitoredStopVisit` and a default
// namespace read alike. Read:
//   StopMonitoringDelivery/MonitoredStopVisit: MonitoringRef, MonitoredVehicleJourney
//     (LineRef, PublishedLineName, DestinationName, FramedVehicleJourneyRef or
//     DatedVehicleJourneyRef, MonitoredCall: StopPointRef, AimedDepartureTime,
//     ExpectedDepartureTime, DeparturePlatformName, DepartureStatus = cancelled);
//   EstimatedTimetableDelivery/.../EstimatedVehicleJourney: LineRef, PublishedLineName,
//     DestinationName, Cancellation, EstimatedCalls/EstimatedCall (StopPointRef, the same times,
//     DeparturePlatformName, Cancellation, DepartureStatus);
//   SituationExchangeDelivery/Situations/PtSituationElement (SIRI-SX, siri-alerts.ts).
import { XMLParser } from 'fast-xml-parser';
import type { SiriData, SiriVisit } from './model.js';
import { FeedFormatError } from './proto-walk.js';

type Node = Record<string, unknown>;

const REPEATED = new Set([
  'MonitoredStopVisit', 'EstimatedVehicleJourney', 'EstimatedCall', 'EstimatedJourneyVersionFrame', 'StopMonitoringDelivery',
  'EstimatedTimetableDelivery', 'PtSituationElement', 'ValidityPeriod', 'AffectedStopPoint', 'AffectedLine', 'AffectedNetwork',
  'DestinationName', 'PublishedLineName', 'Summary', 'Description', 'SituationExchangeDelivery',
]);
const MAX_DEPTH = 32;
const MAX_VISITS = 50_000;

function parser(): XMLParser {
  return new XMLParser({
    ignoreAttributes: true, removeNSPrefix: true, processEntities: false, htmlEntities: false, parseTagValue: false,
    isArray: (name) => REPEATED.has(name), maxNestedTags: MAX_DEPTH * 2,
  });
}

function refuseDeclarations(text: string): void {
  if (/<!(DOCTYPE|ENTITY)/i.test(text)) throw new FeedFormatError('the XML declares a DOCTYPE or ENTITY, which a SIRI feed never needs: refused');
}

function parseText(text: string, p = parser()): unknown {
  try {
    return p.parse(text, true);
  } catch (err) {
    throw new FeedFormatError(`not well-formed XML: ${(err as Error).message.split('\n')[0]}`);
  }
}

export function parseXml(body: Buffer): Node {
  const text = body.toString('utf8');
  refuseDeclarations(text);
  const doc = parseText(text);
  if (!isNode(doc) || !isNode(doc.Siri)) throw new FeedFormatError('not a SIRI document: no Siri element');
  return doc.Siri;
}

/** A journey element (these never nest in themselves), with any namespace prefix. */
const JOURNEY = '<([A-Za-z_][\\w.-]*:)?(MonitoredStopVisit|EstimatedVehicleJourney)(?=[\\s>])';

/**
 * The document cut at its journeys: each MonitoredStopVisit and EstimatedVehicleJourney is
 * parsed on its own, with a pause every `sliceMs`, and the rest (the envelope) once, so a 5 MB
 * delivery never holds the frame loop for the whole parse. Every piece is checked for
 * well-formedness as the whole would be.
 */
async function journeys(body: Buffer, each: (name: string, node: Node) => void, sliceMs: number): Promise<Node> {
  const text = body.toString('utf8');
  refuseDeclarations(text);
  const p = parser();
  const envelope: string[] = [];
  let pos = 0;
  let count = 0;
  let sliceStart = performance.now();
  // One per parse: feeds parse at the same time, each between its pauses.
  const journey = new RegExp(JOURNEY, 'g');
  for (let m = journey.exec(text); m; m = journey.exec(text)) {
    const close = `</${m[1] ?? ''}${m[2]}>`;
    const end = text.indexOf(close, m.index);
    if (end < 0) throw new FeedFormatError(`not well-formed XML: <${m[1] ?? ''}${m[2]}> is not closed`);
    envelope.push(text.slice(pos, m.index));
    pos = end + close.length;
    journey.lastIndex = pos;
    if (++count > MAX_VISITS) continue;
    const doc = parseText(text.slice(m.index, pos), p);
    const node = isNode(doc) ? [doc[m[2]]].flat()[0] : undefined;
    if (isNode(node)) each(m[2], node);
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((r) => setImmediate(r));
      sliceStart = performance.now();
    }
  }
  envelope.push(text.slice(pos));
  const doc = parseText(envelope.join(''), p);
  if (!isNode(doc) || !isNode(doc.Siri)) throw new FeedFormatError('not a SIRI document: no Siri element');
  return doc.Siri;
}

/** Every element named `name` under `node`, at any depth. */
export function all(node: unknown, name: string, depth = 0, out: Node[] = []): Node[] {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) { for (const n of node) all(n, name, depth + 1, out); return out; }
  for (const [k, v] of Object.entries(node as Node)) {
    if (k === name) for (const n of Array.isArray(v) ? v : [v]) { if (isNode(n)) out.push(n); }
    else all(v, name, depth + 1, out);
  }
  return out;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * XML's five predefined entities and character references, decoded here since the parser's
 * entity processing is off: each is one character, nothing expands or is fetched.
 */
function unescape(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g, (all, e: string) => {
    if (e[0] !== '#') return PREDEFINED[e];
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : all;
  });
}

/** An element's text (the first of a repeated one). */
export function text(v: unknown): string {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === 'string') return unescape(v.trim());
  if (isNode(v) && typeof v['#text'] === 'string') return unescape(v['#text'].trim());
  return '';
}

/** An xsd:dateTime as ms; undefined when absent or not a date-time with a zone. */
export function dateTime(v: unknown): number | undefined {
  const s = text(v);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : undefined;
}

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);
const isTrue = (v: unknown) => text(v).toLowerCase() === 'true';

export async function parseSiri(body: Buffer, sliceMs = 4): Promise<SiriData> {
  const visits: SiriVisit[] = [];
  const siri = await journeys(body, (name, node) => {
    if (name === 'MonitoredStopVisit') {
      const j = isNode(node.MonitoredVehicleJourney) ? node.MonitoredVehicleJourney : {};
      const call = isNode(j.MonitoredCall) ? j.MonitoredCall : {};
      const stop = text(node.MonitoringRef) || text(call.StopPointRef);
      visits.push(visitOf(j, call, stop, text(node.ItemIdentifier)));
      return;
    }
    const cancelledJourney = isTrue(node.Cancellation);
    for (const call of all(node.EstimatedCalls, 'EstimatedCall')) {
      if (visits.length >= MAX_VISITS * 4) return;
      const v = visitOf(node, call, text(call.StopPointRef), '');
      if (cancelledJourney) v.cancelled = true;
      visits.push(v);
    }
  }, sliceMs);
  const ts = dateTime((isNode(siri.ServiceDelivery) ? siri.ServiceDelivery : {}).ResponseTimestamp) ?? 0;
  return { timestamp: ts, visits };
}

function visitOf(j: Node, call: Node, stop: string, item: string): SiriVisit {
  const framed = isNode(j.FramedVehicleJourneyRef) ? j.FramedVehicleJourneyRef : {};
  const journey = text(framed.DatedVehicleJourneyRef) || text(j.DatedVehicleJourneyRef) || text(j.VehicleJourneyRef) || item;
  const aimed = dateTime(call.AimedDepartureTime) ?? dateTime(call.AimedArrivalTime);
  const route = text(j.PublishedLineName) || text(j.LineRef);
  return {
    key: `${journey || `${route}@${aimed ?? ''}`}/${text(framed.DataFrameRef)}/${stop}`,
    stop,
    route,
    destination: text(call.DestinationDisplay) || text(j.DestinationName) || text(j.DestinationRef),
    platform: text(call.DeparturePlatformName) || text(call.ArrivalPlatformName),
    aimed,
    expected: dateTime(call.ExpectedDepartureTime) ?? dateTime(call.ExpectedArrivalTime),
    cancelled: isTrue(call.Cancellation) || text(call.DepartureStatus).toLowerCase() === 'cancelled',
  };
}
