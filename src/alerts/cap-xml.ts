// Reads a fetched body as CAP 1.2 (OASIS, urn:oasis:names:tc:emergency:cap:1.2): one <alert>,
// or an Atom 1.0 <feed> / RSS 2.0 <rss><channel> whose <entry>/<item>s either hold a CAP
// <alert> in their <content> (as XML or as escaped XML text) or link to one (Atom
// <link href> with type application/cap+xml, else the first; RSS <link> text).
// Elements read from an alert: identifier, sender, sent, status, msgType, references and each
// <info>: language, event, urgency, severity, certainty, effective, onset, expires, senderName,
// headline, description, instruction and each <area>: areaDesc, polygon, circle,
// geocode (valueName, value). Everything else is ignored.
// A document with a DTD is refused before parsing (no entity can be declared, so none expands:
// no billion laughs, no external entity), and entities are never processed: the five XML
// entities and character references in text are decoded here, which cannot grow the text.
import { XMLParser } from 'fast-xml-parser';
import { CapLimitError, countPoints, MAX_ALERTS, MAX_POINTS, readAlert, type CapAlert } from './cap-alert.js';
import { arr, decodeXmlText, isObj, textOf } from './xml-text.js';

/** What a feed (or a single alert) holds: alerts read in place, and links to alerts to fetch. */
export interface CapDocument {
  kind: 'alert' | 'atom' | 'rss';
  alerts: CapAlert[];
  links: string[];
  /** Entries or alerts left out, each with why (over a limit, not CAP, malformed). */
  refused: string[];
}

export class CapDocumentError extends Error {}

const ARRAYS = new Set([
  'info',
  'area',
  'polygon',
  'circle',
  'geocode',
  'entry',
  'item',
  'link',
  'parameter',
  'resource',
  'eventCode',
]);

function parser(): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    isArray: (name) => ARRAYS.has(name),
  });
}

/** The longest run of text between two tags: a polygon of MAX_POINTS points fits with room to spare. */
export const MAX_TEXT_RUN = 512 * 1024;
/** Tags in one document: 100 alerts of 50 areas each, many times over. */
export const MAX_TAGS = 100_000;
/** Attributes in one tag: an Atom <link> has four, a root's namespace declarations a few more. */
export const MAX_ATTRIBUTES = 64;

const LT = 60;
const GT = 62;
const EQ = 61;
const QUOT = 34;
const APOS = 39;

/**
 * What is refused before the parser sees the text: a DTD (CAP has none, and a DTD is where
 * entity bombs and external entities live), more than MAX_TAGS tags, a tag of more than
 * MAX_ATTRIBUTES attributes, a text run (or a tag, comment or CDATA section) longer than
 * MAX_TEXT_RUN, a <polygon> of more than MAX_POINTS points. One pass over the characters, no
 * copy: the parser builds its text a character at a time and would spend seconds and hundreds
 * of MB on a single 10 MB polygon, and seconds on one tag of 358,000 attributes.
 */
export function precheck(xml: string): void {
  if (/<!DOCTYPE/i.test(xml))
    throw new CapDocumentError(
      'refused: the document holds a <!DOCTYPE> (CAP needs no DTD, and entities are never expanded)',
    );
  if (/<!ENTITY/i.test(xml))
    throw new CapDocumentError('refused: the document declares an <!ENTITY> (entities are never expanded)');
  for (const m of xml.matchAll(/<(?:[\w.-]+:)?polygon(?:\s[^>]*)?>/g)) {
    const from = m.index + m[0].length;
    const to = xml.indexOf('<', from);
    if (countPoints(xml, from, to < 0 ? xml.length : to) > MAX_POINTS)
      throw new CapDocumentError(`refused: the document has a polygon of more than ${MAX_POINTS} points`);
  }
  const tooLong = () =>
    new CapDocumentError(`refused: the document has a text of more than ${MAX_TEXT_RUN} characters`);
  let tags = 0;
  let textFrom = 0;
  for (let i = xml.indexOf('<'); i >= 0; i = xml.indexOf('<', i)) {
    if (++tags > MAX_TAGS) throw new CapDocumentError(`refused: the document has more than ${MAX_TAGS} tags`);
    if (i - textFrom > MAX_TEXT_RUN) throw tooLong();
    const end = tagEnd(xml, i);
    // Not closed: the parser says so.
    if (end < 0) return;
    if (end - i > MAX_TEXT_RUN) throw tooLong();
    i = textFrom = end + 1;
  }
  if (xml.length - textFrom > MAX_TEXT_RUN) throw tooLong();
}

/**
 * Where the markup opened by the '<' at `at` ends (its '>'), -1 when it is not closed; an
 * element's attributes are counted on the way.
 */
function tagEnd(xml: string, at: number): number {
  const closer = (s: string) => {
    const e = xml.indexOf(s, at + 2);
    return e < 0 ? -1 : e + s.length - 1;
  };
  if (xml.startsWith('<!--', at)) return closer('-->');
  if (xml.startsWith('<![CDATA[', at)) return closer(']]>');
  if (xml.startsWith('<?', at)) return closer('?>');
  // An attribute value may hold '>' (and '='): quotes are followed.
  let quote = 0;
  let attributes = 0;
  for (let k = at + 1; k < xml.length; k++) {
    const c = xml.charCodeAt(k);
    if (quote) {
      if (c === quote) quote = 0;
      continue;
    }
    if (c === QUOT || c === APOS) quote = c;
    else if (c === GT) return k;
    else if (c === LT) return k - 1;
    else if (c === EQ && ++attributes > MAX_ATTRIBUTES) {
      throw new CapDocumentError(`refused: the document has a tag of more than ${MAX_ATTRIBUTES} attributes`);
    }
  }
  return -1;
}

/** Checked, then parsed; a parser error is a CapDocumentError saying `what`. */
function parseXml(xml: string, what: string): Record<string, unknown> {
  precheck(xml);
  try {
    return parser().parse(xml) as Record<string, unknown>;
  } catch (err) {
    throw new CapDocumentError(`${what}: ${(err as Error).message.slice(0, 200)}`);
  }
}

export function parseCapDocument(body: Buffer): CapDocument {
  const xml = body.toString('utf8');
  const doc = parseXml(xml, 'the document is not well-formed XML');
  if (isObj(doc.alert)) {
    try {
      return { kind: 'alert', alerts: [readAlert(doc.alert)], links: [], refused: [] };
    } catch (err) {
      throw err instanceof CapLimitError ? new CapDocumentError(`refused: the alert ${err.message}`) : err;
    }
  }
  const out: CapDocument = { kind: 'atom', alerts: [], links: [], refused: [] };
  let entries: unknown[];
  if (isObj(doc.feed)) entries = arr(doc.feed.entry);
  else if (isObj(doc.rss) && isObj(doc.rss.channel)) {
    out.kind = 'rss';
    entries = arr(doc.rss.channel.item);
  } else throw new CapDocumentError('the document is neither a CAP <alert> nor an Atom or RSS feed');
  if (entries.length > MAX_ALERTS)
    out.refused.push(`the feed lists ${entries.length} entries: only the first ${MAX_ALERTS} are read`);
  entries.slice(0, MAX_ALERTS).forEach((e, i) => {
    if (!isObj(e)) return;
    try {
      const alert = embedded(e);
      if (alert) {
        out.alerts.push(readAlert(alert));
        return;
      }
      const link = out.kind === 'rss' ? rssLink(arr(e.link)) : atomLink(arr(e.link));
      if (link) out.links.push(link);
      else out.refused.push(`entry ${i + 1} holds no CAP alert and links to none`);
    } catch (err) {
      if (!(err instanceof CapLimitError || err instanceof CapDocumentError)) throw err;
      out.refused.push(
        err instanceof CapLimitError ? `entry ${i + 1} ${err.message}` : `entry ${i + 1}: ${err.message}`,
      );
    }
  });
  return out;
}

/** A linked alert: one CAP <alert> document. */
export function parseLinkedAlert(body: Buffer): CapAlert {
  const d = parseCapDocument(body);
  if (d.kind !== 'alert') throw new CapDocumentError('the link leads to a feed, not to a CAP <alert>');
  return d.alerts[0];
}

function embedded(e: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isObj(e.alert)) return e.alert;
  for (const c of [e.content, e.description, e.summary]) {
    if (isObj(c) && isObj(c.alert)) return c.alert;
    const t = textOf(c);
    if (t && t.includes('alert') && t.trimStart().startsWith('&lt;')) {
      // Escaped XML text: decoded once and parsed as a document of its own (one level only).
      const d = parseXml(decodeXmlText(t), 'its escaped content is not well-formed XML');
      if (isObj(d.alert)) return d.alert;
    }
  }
  return undefined;
}

/** An RSS <link>'s text, its entities decoded as every text is (`&amp;` between query parameters). */
function rssLink(links: unknown[]): string | undefined {
  const t = textOf(links[0]);
  return t === undefined ? undefined : decodeXmlText(t);
}

function atomLink(links: unknown[]): string | undefined {
  const hrefs = links.filter(isObj).map((l) => ({ href: l['@_href'], type: l['@_type'] }));
  const cap = hrefs.find((l) => typeof l.type === 'string' && l.type.includes('cap'));
  const h = (cap ?? hrefs[0])?.href;
  return typeof h === 'string' ? decodeXmlText(h) : undefined;
}
