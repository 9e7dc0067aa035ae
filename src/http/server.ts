import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { ERRORS, type ErrorCode } from '../errors.js';
import type { HttpLog } from './middleware.js';

/**
 * The HTTP server around the koa app. Requests koa never sees still get the JSON error
 * body every other error has: CONNECT (Node hands it to a 'connect' listener, or drops the
 * connection without one) and what Node's parser refuses before there is a request.
 */
export function createHttpServer(app: Koa, log: HttpLog): Server {
  const server = createServer(app.callback());
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    log.info({ method: req.method, ip: req.socket.remoteAddress, status: 405 }, 'request');
    answer(socket, 'MLDS_METHOD_NOT_ALLOWED', `${req.method} is not allowed; use GET`, { Allow: 'GET, HEAD' });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [code, message] = parserError(err.code);
    log.info({ ip: (socket as Duplex & { remoteAddress?: string }).remoteAddress, status: ERRORS[code].status, err: err.code ?? err.message }, 'request refused by the HTTP parser');
    // A pipelined request before the bad one is answered first (Node's default handler drops its reply).
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (pending && !pending.writableFinished) {
      pending.once('finish', () => answer(socket, code, message));
      pending.once('close', () => { if (!pending.writableFinished) socket.destroy(); });
    } else {
      answer(socket, code, message);
    }
  });
  return server;
}

function parserError(code: string | undefined): [ErrorCode, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return ['MLDS_HEADERS_TOO_LARGE', 'the request line and headers are too large (the limit is 16 KiB)'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['MLDS_REQUEST_TIMEOUT', 'the request did not arrive in time'];
    default:
      return ['MLDS_BAD_REQUEST', `the request is not valid HTTP/1.1 (${code ?? 'parse error'})`];
  }
}

/** A complete HTTP/1.1 error response on a raw socket, then the connection ends. */
function answer(socket: Duplex, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  const status = ERRORS[code].status;
  const body = JSON.stringify({ result: 'error', code, message });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  // end() flushes, destroy() frees the socket even if the client never reads.
  socket.once('finish', () => socket.destroy());
  socket.once('error', () => socket.destroy());
}
