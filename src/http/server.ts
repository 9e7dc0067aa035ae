import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { DEFAULT_LIMITS } from '../config/field-settings.js';
import type { HttpLimits } from '../config/types.js';
import { ERRORS, type ErrorCode } from '../errors.js';
import { maskUrl } from '../control/credentials.js';
import { errorBody, JSON_TYPE, type HttpLog } from './middleware.js';
import type { Refusals } from './refusals.js';
import { refusalLog } from '../log/refusal-log.js';
import { connectionSlots, type ConnectionSlots } from './connection-slots.js';
import type { HttpApp } from './app.js';

/**
 * How often Node looks for requests past their header or request time limit. Its default,
 * 30 s, would let a slow client hold a connection half a minute past its limit.
 */
const TIMEOUT_CHECK_MS = 500;

/**
 * The HTTP server around the koa app. Requests koa never sees still get the JSON error
 * body every other error has: CONNECT (Node hands it to a 'connect' listener, or drops the
 * connection without one), what Node's parser refuses before there is a request, a URL over
 * the limit and a client over its share of connections.
 */
export function createHttpServer(app: HttpApp, log: HttpLog, limits: HttpLimits = DEFAULT_LIMITS): Server {
  const server = createServer(serverOptions(limits), guardUrl(app.listener, app.refusals, limits));
  protect(server, log, limits, true, app.refusals);
  return server;
}

/** The parts of `limits` Node applies itself; the HTTPS server takes the same. */
export function serverOptions(limits: HttpLimits): ServerOptions {
  return {
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    // Node's own check answers a bare 400 with no body and no log line; guardUrl() answers it.
    requireHostHeader: false,
  };
}

/**
 * A URL over `maxUrlBytes` is answered 414 before koa parses its query; an HTTP/1.1 request
 * without Host (RFC 9112, 3.2) 400, with the JSON body every error has. Both are refusals:
 * counted against the client's rate and logged as counts, not one by one.
 */
export function guardUrl(handler: RequestListener, refusals: Refusals, limits: HttpLimits): RequestListener {
  return (req, res) => {
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      refusals.refused(req.socket.remoteAddress ?? 'unknown', 400, `${req.method} ${maskUrl(req.url ?? '')} (no Host)`);
      return reply(res, 'MLDS_BAD_REQUEST', 'an HTTP/1.1 request needs a Host header');
    }
    const length = req.url?.length ?? 0;
    if (length <= limits.maxUrlBytes) return handler(req, res);
    // The URL itself is not logged: it is the oversized thing, and may carry a key.
    refusals.refused(req.socket.remoteAddress ?? 'unknown', 414, `${req.method} (a URL of ${length} bytes)`);
    reply(res, 'MLDS_URL_TOO_LONG', `the URL is ${length} bytes long; the limit is ${limits.maxUrlBytes}`);
  };
}

/**
 * What both servers share: idle timeout, connection slots and caps, JSON answers for CONNECT and parser errors (counted
 * refusals).
 */
export function protect(
  server: Server | HttpsServer,
  log: HttpLog,
  limits: HttpLimits,
  plain: boolean,
  refusals: Refusals,
): void {
  // A client that stops sending and reading (half-open, vanished) is dropped after this long.
  server.timeout = limits.idleTimeoutMs;
  // No server.maxConnections: Node would close the new connection; the slots close the one waiting longest.
  limitPerClient(server, log, limits, plain, connectionSlots(server, log, limits));
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    refusals.refused(req.socket.remoteAddress ?? 'unknown', 405, `${req.method} ${maskUrl(req.url ?? '')}`);
    answer(socket, 'MLDS_METHOD_NOT_ALLOWED', `${req.method} is not allowed; use GET`, { Allow: 'GET, HEAD' });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [code, message] = parserError(err.code, limits);
    refusals.refused(
      (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown',
      ERRORS[code].status,
      `refused by the HTTP parser: ${err.code ?? err.message}`,
    );
    // A pipelined request before the bad one is answered first (Node's default handler drops its reply).
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (pending && !pending.writableFinished) {
      pending.once('finish', () => answer(socket, code, message));
      pending.once('close', () => {
        if (!pending.writableFinished) socket.destroy();
      });
    } else {
      answer(socket, code, message);
    }
  });
}

/**
 * One client may hold at most `maxConnectionsPerClient` connections, so it cannot take all
 * `maxConnections` for itself. A plain connection over the share is answered 429 at once and
 * closed; a TLS one is closed (there is no handshake yet to answer through). A connection
 * within its share then takes one of the `slots`.
 */
function limitPerClient(
  server: Server | HttpsServer,
  log: HttpLog,
  limits: HttpLimits,
  plain: boolean,
  slots: ConnectionSlots,
): void {
  const open = new Map<string, number>();
  const refused = refusalLog(log, (ip, n) => [
    { ip, refused: n, limit: limits.maxConnectionsPerClient },
    `connections refused: ${n} from ${ip} over its ${limits.maxConnectionsPerClient}`,
  ]);
  // Before Node's own listener: a refused socket is answered before any request is parsed.
  server.prependListener('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? 'unknown';
    const n = (open.get(ip) ?? 0) + 1;
    if (n > limits.maxConnectionsPerClient) {
      refused(ip);
      if (!plain) return void socket.destroy();
      return answer(
        socket,
        'MLDS_TOO_MANY_CONNECTIONS',
        `${ip} already holds ${limits.maxConnectionsPerClient} connections`,
        { 'Retry-After': '1' },
      );
    }
    if (!slots.admit(socket, ip)) return;
    open.set(ip, n);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
    });
  });
}

function parserError(code: string | undefined, limits: HttpLimits): [ErrorCode, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        'MLDS_HEADERS_TOO_LARGE',
        `the request line and headers are too large (the limit is ${limits.maxHeaderBytes} bytes)`,
      ];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        'MLDS_REQUEST_TIMEOUT',
        `the request did not arrive in time (the limit is ${limits.headersTimeoutMs} ms for the headers)`,
      ];
    default:
      return ['MLDS_BAD_REQUEST', `the request is not valid HTTP/1.1 (${code ?? 'parse error'})`];
  }
}

/** The JSON error answer through Node's response object (the request was parsed). */
function reply(res: ServerResponse, code: ErrorCode, message: string): void {
  const body = errorBody(code, message);
  const headers = { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body), Connection: 'close' };
  res.writeHead(ERRORS[code].status, headers);
  res.end(body);
}

/** A complete HTTP/1.1 error response on a raw socket, then the connection ends. */
function answer(socket: Duplex, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  const status = ERRORS[code].status;
  const body = errorBody(code, message);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    `Content-Type: ${JSON_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  // end() flushes, destroy() frees the socket even if the client never reads.
  socket.once('finish', () => socket.destroy());
  socket.once('error', () => socket.destroy());
}
