// For the alerts tests: CAP 1.2 alerts written as the standard's XML, Atom feeds of them, and
// a loopback HTTP server whose answers a test changes as it goes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CAP_NS = 'urn:oasis:names:tc:emergency:cap:1.2';

export interface AreaSpec {
  desc?: string;
  polygon?: string;
  circle?: string;
  geocode?: [string, string];
}
export interface InfoSpec {
  language?: string;
  event?: string;
  headline?: string;
  description?: string;
  instruction?: string;
  severity?: string;
  urgency?: string;
  certainty?: string;
  effective?: string;
  expires?: string;
  areas?: AreaSpec[];
}
export interface AlertSpec {
  identifier: string;
  sender?: string;
  sent?: string;
  status?: string;
  msgType?: string;
  references?: string;
  infos?: InfoSpec[];
  xmlns?: boolean;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const el = (name: string, v: string | undefined) => (v === undefined ? '' : `<${name}>${esc(v)}</${name}>`);

export const SENDER = 'w-nws.webmaster@noaa.gov';
export const SENT = '2026-11-28T10:00:00-00:00';

export function capAlert(a: AlertSpec): string {
  const infos = (a.infos ?? [{}])
    .map(
      (i) =>
        `<info>${el('language', i.language ?? 'en-US')}<category>Met</category>${el('event', i.event ?? 'Flood Warning')}` +
        `${el('urgency', i.urgency ?? 'Immediate')}${el('severity', i.severity ?? 'Severe')}${el('certainty', i.certainty ?? 'Observed')}` +
        `${el('effective', i.effective)}${el('expires', i.expires)}${el('senderName', 'Test Weather Service')}` +
        `${el('headline', i.headline ?? 'River over its banks')}${el('description', i.description ?? 'The river is rising.')}${el('instruction', i.instruction)}` +
        (i.areas ?? [])
          .map(
            (ar) =>
              `<area>${el('areaDesc', ar.desc ?? 'Test county')}${el('polygon', ar.polygon)}${el('circle', ar.circle)}` +
              (ar.geocode
                ? `<geocode><valueName>${esc(ar.geocode[0])}</valueName><value>${esc(ar.geocode[1])}</value></geocode>`
                : '') +
              '</area>',
          )
          .join('') +
        '</info>',
    )
    .join('');
  return (
    `<alert${a.xmlns === false ? '' : ` xmlns="${CAP_NS}"`}>${el('identifier', a.identifier)}${el('sender', a.sender ?? SENDER)}${el('sent', a.sent ?? SENT)}` +
    `${el('status', a.status ?? 'Actual')}${el('msgType', a.msgType ?? 'Alert')}<scope>Public</scope>${el('references', a.references)}${infos}</alert>`
  );
}

export const doc = (alert: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${alert}`;

/** An Atom feed whose entries hold the alerts in their content. */
export function atomFeed(alerts: string[]): string {
  const entries = alerts
    .map(
      (x, i) =>
        `<entry><id>urn:test:${i}</id><title>alert ${i}</title><updated>${SENT}</updated><content ` +
        `type="text/xml">${x}</content></entry>`,
    )
    .join('');
  return doc(
    `<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test</id><title>Test ` +
      `alerts</title><updated>${SENT}</updated>${entries}</feed>`,
  );
}

/** An Atom feed whose entries link to alerts. */
export function atomLinks(hrefs: string[]): string {
  const entries = hrefs
    .map(
      (h, i) =>
        `<entry><id>urn:test:${i}</id><title>alert ${i}</title><updated>${SENT}</updated><link rel="alternate" ` +
        `type="application/cap+xml" href="${esc(h)}"/></entry>`,
    )
    .join('');
  return doc(
    `<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test</id><title>Test ` +
      `alerts</title><updated>${SENT}</updated>${entries}</feed>`,
  );
}

/** A polygon (closed) around a point, d degrees each way. */
export const square = (lat: number, lon: number, d = 0.1) =>
  [
    [lat - d, lon - d],
    [lat - d, lon + d],
    [lat + d, lon + d],
    [lat + d, lon - d],
    [lat - d, lon - d],
  ]
    .map(([a, b]) => `${a},${b}`)
    .join(' ');

export interface CapServer {
  url(path: string): string;
  /** What each path answers now: a string body, or a handler. */
  routes: Map<string, string | ((req: IncomingMessage, res: ServerResponse) => void)>;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function capServer(): Promise<CapServer> {
  const routes: CapServer['routes'] = new Map();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0];
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const r = routes.get(p);
    if (r === undefined) {
      res.writeHead(404).end();
      return;
    }
    if (typeof r === 'function') {
      r(req, res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml' }).end(r);
  });
  // Longer than the fetcher keeps an idle connection: a reused connection is never closed under it.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (p) => `http://127.0.0.1:${port}${p}`,
    routes,
    hits,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
