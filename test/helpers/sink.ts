// A loopback HTTP server that records every request it gets (method, path, content type,
// body) and answers what the test tells it to: the far end of crons, pollers and feedback.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  type: string | undefined;
  body: string;
}

export interface Sink {
  got: Received[];
  port: number;
  url(path: string): string;
  /** How the next requests are answered; the default answers 200 "ok". */
  answer: (req: Received, res: ServerResponse) => void;
  close(): void;
}

export async function sink(): Promise<Sink> {
  const s: Sink = {
    got: [],
    port: 0,
    url: (path) => `http://127.0.0.1:${s.port}${path}`,
    answer: (_req, res) => res.end('ok'),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method!,
        url: req.url!,
        type: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      };
      s.got.push(r);
      s.answer(r, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  s.port = (server.address() as AddressInfo).port;
  return s;
}
