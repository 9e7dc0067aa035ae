// One HTTP(S) request of a fetch, through node:http and node:https rather than the global fetch:
// only they let the connection use a lookup of ours (address-rules.ts), which is where the rules
// on addresses are checked. No connection is kept for another fetch: the next one may run under
// other rules, and a pooled socket would skip its lookup.
import http, { type IncomingMessage } from 'node:http';
import type * as Https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { requireCjs } from '../util/require-cjs.js';

export interface HopOptions {
  method: string;
  body?: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  lookup: LookupFunction;
}

export interface Hop {
  status: number;
  headers: Headers;
  /** The address the answer came from. */
  remoteAddress: string | undefined;
  /** The body with its Content-Encoding undone; undefined for an answer without one (HEAD, 204, 304). */
  body: Readable | undefined;
  /** Ends the answer and its connection (a redirect's body, or a body not read to its end). */
  close(): void;
}

// Lenient about a body cut short at its end, as browsers (and the global fetch) are.
const ZLIB = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

/** Content codings decoded as the global fetch decodes them; an unknown one leaves the body as sent. */
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(ZLIB),
  'x-gzip': () => zlib.createGunzip(ZLIB),
  deflate: () => zlib.createInflate(ZLIB),
  br: () => zlib.createBrotliDecompress(BROTLI),
};

export function requestHop(url: URL, o: HopOptions): Promise<Hop> {
  return new Promise((resolve, reject) => {
    // node:https (and TLS under it) loads with the first https URL: a service that fetches none never loads it.
    const mod = url.protocol === 'https:' ? (requireCjs('node:https') as typeof Https) : http;
    const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br', ...o.headers };
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
    const options = { method: o.method, headers, agent: false, lookup: o.lookup, signal: o.signal };
    const req = mod.request(url, options, (res) => {
      const close = () => {
        res.destroy();
        req.destroy();
      };
      // Errors reach the reader through the stream; this keeps one nobody reads from being thrown.
      res.on('error', () => undefined);
      // An abort while the body streams ends the body too, not only the request.
      const onAbort = () => res.destroy(o.signal.reason instanceof Error ? o.signal.reason : new Error('aborted'));
      o.signal.addEventListener('abort', onAbort, { once: true });
      res.once('close', () => o.signal.removeEventListener('abort', onAbort));
      const status = res.statusCode ?? 0;
      const bodyless = o.method === 'HEAD' || status === 204 || status === 304 || (status >= 300 && status < 400);
      const body = bodyless ? undefined : decoded(res);
      resolve({ status, headers: headersOf(res), remoteAddress: res.socket?.remoteAddress, body, close });
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

function decoded(res: IncomingMessage): Readable {
  const codings = (res.headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity');
  if (codings.length === 0 || !codings.every((c) => c in DECODERS)) return res;
  // Applied in the order given, so undone in the reverse.
  const streams = [res, ...codings.reverse().map((c) => DECODERS[c]())] as [Readable, ...NodeJS.ReadWriteStream[]];
  return pipeline(streams, () => {
    /* an error reaches the reader through the last stream */
  }) as unknown as Readable;
}

function headersOf(res: IncomingMessage): Headers {
  const h = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      h.append(raw[i], raw[i + 1]);
    } catch {
      /* a value Headers refuses is one no caller reads */
    }
  }
  return h;
}
