// Loopback ports for tests that must name one before anything listens on it.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

/** A loopback TCP port free now (bound once to find it, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A loopback UDP port nobody listens on (bound once to find it, then released). */
export async function closedUdpPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
