// Two ways the service asks itself whether HTTP answers, on loopback.
import { request } from 'node:http';
import { connect } from 'node:net';

/**
 * Whether the HTTP server is alive: listening, accepting, parsing and answering. The request
 * carries an `Expect` value no one knows, which Node's HTTP server answers with 417 itself
 * (there is no 'checkExpectation' listener), before koa: so the watchdog's probe every few
 * seconds writes no request log line and counts against no rate limit. Any status line is
 * an answer. Resolves undefined when answered, else why not.
 */
export function probeHttp(port: number, timeoutMs: number, host = '127.0.0.1'): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    let got = '';
    const done = (why: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(`HTTP on port ${port} did not answer within ${timeoutMs} ms`), timeoutMs);
    socket.setEncoding('latin1');
    socket.on('connect', () =>
      socket.write(`HEAD / HTTP/1.1\r\nHost: ${host}\r\nExpect: mlds-watchdog\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (d: string) => {
      got += d;
      if (/^HTTP\/1\.[01] \d{3}/.test(got)) done(undefined);
      else if (got.includes('\r\n'))
        done(`HTTP on port ${port} answered something else: ${JSON.stringify(got.slice(0, 40))}`);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => done(`HTTP on port ${port}: ${err.code ?? err.message}`));
    socket.on('end', () => done(`HTTP on port ${port} closed the connection without answering`));
  });
}

/**
 * The status an ordinary request gets through the whole application (503 while the service
 * is starting or swapping its configuration), or undefined when it did not answer. Its own
 * connection (no pool), closed with the answer.
 */
export function appStatus(port: number, timeoutMs: number, host = '127.0.0.1'): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(
      {
        host,
        port,
        method: 'HEAD',
        path: '/status',
        agent: false,
        timeout: timeoutMs,
        headers: { Connection: 'close' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}
