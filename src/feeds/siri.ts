// SIRI (CEN/TS 15531) as producers serve it, read into the boards' small shape (model.ts):
//   XML, `Siri/ServiceDelivery/...` (a `siri:` prefix or a default namespace alike: prefixes are
//     dropped), or SOAP-wrapped as the French profile answers: `Envelope/Body/<Get...Response>/
//     ServiceDeliveryInfo` (ResponseTimestamp) and `Answer/<...Delivery>`; a SOAP Fault is said
//     as such. Read with fast-xml-parser, entities off and any DOCTYPE or ENTITY refused before
//     parsing (no entity expansion, no external fetch); the five predefined entities and
//     character references are decoded by hand.
//   SIRI-Lite JSON: `{"Siri":{"ServiceDelivery":{...}}}` (PRIM, values as `{"value": ...}`) or
//     `{"ServiceDelivery":{...}}` (511), a delivery or repeated element as an object or a list.
// Deliveries read: StopMonitoringDelivery (its MonitoringRef names the stop of visits that
// give none), EstimatedTimetableDelivery; SituationExchangeDelivery in siri-alerts.ts. What a
// call says is read in siri-calls.ts.
import { XMLParser } from 'fast-xml-parser';
import type { SiriData, SiriVisit } from './model.js';
import { FeedFormatError } from './proto-walk.js';
import { all, dateTime, isNode, list, MAX_DEPTH, text, type Node } from './siri-values.js';
import { estimatedCalls, monitoredVisit, type TimeReader } from './siri-calls.js';

/** Where a journey cut out of the document stood (an element name no SIRI document uses). */
const VISIT_MARK = 'mlds-cut';

const REPEATED = new Set([
  'MonitoredStopVisit',
  'EstimatedVehicleJourney',
  'EstimatedCall',
  'EstimatedJourneyVersionFrame',
  'StopMonitoringDelivery',
  'EstimatedTimetableDelivery',
  'PtSituationElement',
  'ValidityPeriod',
  'AffectedStopPoint',
  'AffectedLine',
  'AffectedNetwork',
  'DestinationName',
  'PublishedLineName',
  'Summary',
  'Description',
  'SituationExchangeDelivery',
  'MonitoringRef',
  VISIT_MARK,
  'AffectedVehicleJourney',
  'AffectedStopPlace',
]);
const MAX_VISITS = 50_000;

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

function parser(): XMLParser {
  return new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    isArray: (name) => REPEATED.has(name),
    maxNestedTags: MAX_DEPTH * 2,
    tagValueProcessor: (_n, v) => unescape(v),
  });
}

function refuseDeclarations(text: string): void {
  if (/<!(DOCTYPE|ENTITY)/i.test(text))
    throw new FeedFormatError('the XML declares a DOCTYPE or ENTITY, which a SIRI feed never needs: refused');
}

function parseText(text: string, p = parser()): unknown {
  try {
    return p.parse(text, true);
  } catch (err) {
    throw new FeedFormatError(`not well-formed XML: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** A body that is JSON (SIRI-Lite) rather than XML, by its first character. */
function isJson(text: string): boolean {
  return /^\s*[{[]/.test(text);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FeedFormatError(`not well-formed JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

/**
 * The SIRI root of a parsed document: `Siri`, a SOAP Body's response (whose `Answer` holds the
 * deliveries), or a JSON document's own top (511 leaves out `Siri`).
 */
function rootOf(doc: unknown, json: boolean): Node {
  if (isNode(doc) && isNode(doc.Siri)) return doc.Siri;
  const body = isNode(doc) && isNode(doc.Envelope) && isNode(doc.Envelope.Body) ? doc.Envelope.Body : undefined;
  if (body) {
    const fault = all(body, 'Fault')[0];
    if (fault) {
      const why = text(fault.faultstring) || text(all(fault, 'Reason')[0]?.Text) || 'no reason given';
      throw new FeedFormatError(`the SIRI server answered a SOAP Fault: ${why.slice(0, 200)}`);
    }
    return body;
  }
  if (json && isNode(doc) && isNode(doc.ServiceDelivery)) return doc;
  throw new FeedFormatError(
    json
      ? 'not a SIRI-Lite document: no Siri or ServiceDelivery object'
      : 'not a SIRI document: no Siri element (nor a SOAP Envelope holding one)',
  );
}

/** A whole document's SIRI root, parsed at once (situations: small documents). */
export function parseDocument(body: Buffer): Node {
  const t = textOf(body);
  if (isJson(t)) return rootOf(parseJson(t), true);
  refuseDeclarations(t);
  return rootOf(parseText(t), false);
}

const textOf = (body: Buffer) => body.toString('utf8').replace(/^\uFEFF/, '');

/** A journey element (these never nest in themselves), with any namespace prefix. */
const JOURNEY = '<([A-Za-z_][\\w.-]*:)?(MonitoredStopVisit|EstimatedVehicleJourney)(?=[\\s>])';

/**
 * The document cut at its journeys: each MonitoredStopVisit and EstimatedVehicleJourney is
 * parsed on its own, with a pause every `sliceMs`, and the rest (the envelope) once, each
 * journey's place marked in it, so a 5 MB delivery never holds the frame loop for the whole
 * parse. Every piece is checked for well-formedness as the whole would be.
 */
async function cutJourneys(text: string, sliceMs: number): Promise<{ root: Node; pieces: Node[] }> {
  refuseDeclarations(text);
  const p = parser();
  const envelope: string[] = [];
  const pieces: Node[] = [];
  let pos = 0;
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
    if (pieces.length >= MAX_VISITS) continue;
    const doc = parseText(text.slice(m.index, pos), p);
    const node = isNode(doc) ? [doc[m[2]]].flat()[0] : undefined;
    envelope.push(`<${VISIT_MARK}>${pieces.length}</${VISIT_MARK}>`);
    pieces.push(isNode(node) ? { [m[2]]: node } : {});
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((r) => setImmediate(r));
      sliceStart = performance.now();
    }
  }
  envelope.push(text.slice(pos));
  return { root: rootOf(parseText(envelope.join(''), p), false), pieces };
}

/**
 * The departures of a SIRI-SM or SIRI-ET delivery. `zone` reads times given without an offset;
 * times that cannot be read are counted (a board with nothing to show says why on /status).
 */
export async function parseSiri(body: Buffer, sliceMs = 4, zone?: string): Promise<SiriData> {
  const t = textOf(body);
  const json = isJson(t);
  const { root, pieces } = json ? { root: rootOf(parseJson(t), true), pieces: [] } : await cutJourneys(t, sliceMs);
  const times: TimeReader = { zone, unread: 0, example: undefined };
  const visits: SiriVisit[] = [];
  const take = (v: SiriVisit | undefined) => {
    if (v && visits.length < MAX_VISITS * 4) visits.push(v);
  };
  /** A journey as it stands in the delivery: a mark of the cut-out piece (XML) or the element itself (JSON). */
  const journeys = (parent: unknown, name: string): Node[] =>
    json
      ? all(parent, name)
      : marks(parent)
          .map((i) => pieces[i]?.[name])
          .filter(isNode);
  const sm = all(root, 'StopMonitoringDelivery');
  const et = all(root, 'EstimatedTimetableDelivery');
  for (const d of sm) {
    const deliveryStop = text(d.MonitoringRef);
    for (const v of journeys(d, 'MonitoredStopVisit')) take(monitoredVisit(v, deliveryStop, times));
  }
  for (const d of et) {
    for (const j of journeys(d, 'EstimatedVehicleJourney')) for (const v of estimatedCalls(j, times)) take(v);
  }
  const delivery = isNode(root.ServiceDelivery) ? root.ServiceDelivery : root;
  if (!visits.length) refused([delivery, ...sm, ...et]);
  const info = all(root, 'ServiceDeliveryInfo')[0] ?? {};
  const ts = dateTime(delivery.ResponseTimestamp, zone) ?? dateTime(info.ResponseTimestamp, zone) ?? 0;
  const unreadTimes = times.unread ? { count: times.unread, example: times.example ?? '' } : undefined;
  return { timestamp: ts, visits, ...(unreadTimes ? { unreadTimes } : {}) };
}

/** A delivery with Status false is the server's refusal (a wrong RequestorRef, a key refused): said as such. */
function refused(deliveries: Node[]): void {
  const d = deliveries.find((x) => text(x.Status).toLowerCase() === 'false');
  if (!d) return;
  const condition = all(d, 'ErrorCondition')[0] ?? {};
  const kind = Object.keys(condition).find((k) => k.endsWith('Error'));
  const error = kind ? list(condition[kind]).find(isNode) : undefined;
  const why = text(error?.ErrorText) || text(condition.Description) || kind || 'no reason given';
  throw new FeedFormatError(`the SIRI server answered Status false: ${why.slice(0, 200)}`);
}

/** The indexes of the journeys cut out under `node` (cutJourneys' marks). */
function marks(node: unknown, depth = 0, out: number[] = []): number[] {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) marks(n, depth + 1, out);
    return out;
  }
  for (const [k, v] of Object.entries(node as Node)) {
    if (k === VISIT_MARK) for (const n of list(v)) out.push(Number(text(n)));
    else marks(v, depth + 1, out);
  }
  return out;
}
